import SextantProtocol

/// What the altimeter reports about once a second (RULES B1–B3): the pressure, the altitude
/// that relative altitudes are counted in, and the absolute altitude with its accuracy.
public struct AltimeterReading: Sendable, Equatable {
    /// The static pressure in kPa, as `CMAltitudeData.pressure`.
    public var pressure: Double
    /// The pressure altitude (m, the standard atmosphere's) a barometer's pressure says, or
    /// the fix's altitude when the pressure is derived from it: what `relativeAltitude` is
    /// counted in, from each stream's first reading.
    public var altitude: Double
    /// The altitude above sea level (m), as `CMAbsoluteAltitudeData.altitude`.
    public var absoluteAltitude: Double
    /// Metres either side (`CMAbsoluteAltitudeData.accuracy`): the fix's vertical accuracy;
    /// nil when no fix with one is known.
    public var accuracy: Double?
    /// Whether the pressure was made from the fix's altitude (no barometer heard).
    public var derived: Bool
    public var time: Timestamp
}

/// The altimeter (RULES B1–B3), pure: barometer readings and fixes in, a reading about once
/// a second out.
///
/// A barometer heard within ``barometerTimeout`` is the source: its pressure altitude moves
/// the relative altitude, and the absolute altitude is the latest fix's altitude carried
/// by the pressure's change since that fix (without a fix, the pressure altitude itself).
/// Without a barometer the pressure is derived from each fix's altitude by the standard
/// atmosphere (`p = p0 × (1 − h/44330)^5.255`, `p0` the sea-level pressure setting).
public struct AltimeterEngine: Sendable {
    /// About 1 Hz, as Core Motion delivers `CMAltitudeData` whether or not the pressure changed.
    public static let interval: Int64 = 1_000_000_000
    /// A barometer silent this long is no longer the source: the fixes' altitude takes over.
    public static let barometerTimeout: Int64 = 5_000_000_000

    public let seaLevelPressure: Double
    private var lastBarometer: Timestamp?
    /// The latest pressure altitude, for the fix that comes next.
    private var pressureAltitude: Double?
    /// Fix altitude − pressure altitude at the latest fix with an altitude, and its vAcc.
    private var fixOffset: (offset: Double, accuracy: Double?)?
    private var lastSent: Timestamp?

    public init(seaLevelPressure: Double = StandardAtmosphere.seaLevelPressure) { self.seaLevelPressure = seaLevelPressure }

    /// A barometer reading in hPa; the reading to report, if one is due.
    public mutating func barometer(hectopascals hPa: Double, at time: Timestamp) -> AltimeterReading? {
        lastBarometer = time
        let altitude = StandardAtmosphere.altitude(atPressure: hPa, seaLevel: seaLevelPressure)
        pressureAltitude = altitude
        guard isDue(time) else { return nil }
        return AltimeterReading(
            pressure: hPa / 10, altitude: altitude, absoluteAltitude: altitude + (fixOffset?.offset ?? 0),
            accuracy: fixOffset?.accuracy, derived: false, time: time)
    }

    /// A fix's altitude (m) and vertical accuracy; the reading to report, if one is due. A
    /// fix without an altitude says nothing to the altimeter.
    public mutating func fix(altitude: Double?, verticalAccuracy: Double?, at time: Timestamp) -> AltimeterReading? {
        guard let altitude else { return nil }
        if let lastBarometer, let pressureAltitude, heard(lastBarometer, at: time) {
            fixOffset = (altitude - pressureAltitude, verticalAccuracy)
            return nil
        }
        fixOffset = nil
        guard isDue(time) else { return nil }
        let hPa = StandardAtmosphere.pressure(atAltitude: altitude, seaLevel: seaLevelPressure)
        return AltimeterReading(pressure: hPa / 10, altitude: altitude, absoluteAltitude: altitude, accuracy: verticalAccuracy, derived: true, time: time)
    }

    private func heard(_ barometer: Timestamp, at time: Timestamp) -> Bool {
        time.nanoseconds >= barometer.nanoseconds && time.nanoseconds - barometer.nanoseconds <= Self.barometerTimeout
    }

    /// A reading at least ``interval`` after the last one reported (the first, and the
    /// first after a time earlier than the last: a replay sought back).
    private mutating func isDue(_ time: Timestamp) -> Bool {
        if let lastSent, time >= lastSent, time.nanoseconds - lastSent.nanoseconds < Self.interval { return false }
        lastSent = time
        return true
    }
}
