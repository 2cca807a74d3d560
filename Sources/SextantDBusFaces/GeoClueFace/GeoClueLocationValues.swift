import SextantCore
import SextantHub
import SextantProtocol

/// The properties of a GeoClue `Location` object, made from a fix the rules let the client
/// have (already reduced when served reduced: RULES L10 leaves no altitude, speed or
/// course, which GeoClue's "unknown" values then say).
struct GeoClueLocationValues: Equatable {
    var latitude: Double
    var longitude: Double
    /// Metres: the fix's horizontal accuracy (at least 2000 m when reduced).
    var accuracy: Double
    /// Metres; `-Double.greatestFiniteMagnitude` when unknown, as GeoClue.
    var altitude: Double
    /// Metres per second; -1 when unknown.
    var speed: Double
    /// Degrees clockwise from north; -1 when unknown.
    var heading: Double
    var description: String
    /// Seconds and microseconds since the epoch, when the fix was taken.
    var timestampSeconds: UInt64
    var timestampMicroseconds: UInt64

    static let unknownAltitude = -Double.greatestFiniteMagnitude
    static let unknownSpeed = -1.0
    static let unknownHeading = -1.0

    /// `compass`: the compass's true heading the client may have at this fix, asked only
    /// when the fix says nothing of a motion (``heading(of:compass:)``).
    init(_ fix: LocationFix, compass: () -> Double? = { nil }) {
        latitude = fix.latitude
        longitude = fix.longitude
        accuracy = fix.horizontalAccuracy
        altitude = fix.altitude ?? Self.unknownAltitude
        speed = fix.speed ?? Self.unknownSpeed
        heading = Self.heading(of: fix, compass: compass)
        description = ""
        // D-Bus's (tt) is unsigned: a fix from before 1970 says the epoch.
        let nanoseconds = max(0, fix.time.nanoseconds)
        timestampSeconds = UInt64(nanoseconds / 1_000_000_000)
        timestampMicroseconds = UInt64(nanoseconds % 1_000_000_000 / 1000)
    }

    /// GeoClue's `Heading` is the direction of motion: the fix's course while it moves (a
    /// course and a speed that is not 0). Not moving, the compass's heading when there is
    /// one, as GeoClue 2.6 takes iio-sensor-proxy's (`set_heading_from_compass`); else the
    /// course as the fix gives it, else -1 (docs/dbus.md, "Heading").
    static func heading(of fix: LocationFix, compass: () -> Double?) -> Double {
        if let course = fix.course, fix.speed != 0 { return course }
        return compass() ?? fix.course ?? unknownHeading
    }
}

extension GeoClueFace {
    /// How far from a fix's time a compass reading still counts as the heading at it.
    static let compassFreshness: Int64 = 5_000_000_000

    /// The compass's true heading, in the device's natural orientation, that `session` may
    /// have at `fix`: only at full accuracy (a reduced fix has no heading, L10), and only a
    /// reading within ``compassFreshness`` of the fix.
    func compassHeading(for session: AppSession?, at fix: LocationFix) -> Double? {
        guard let session, hub.servedAccuracy(of: session) == .full, let latest = hub.latestHeading else { return nil }
        let (gap, overflow) = latest.time.nanoseconds.subtractingReportingOverflow(fix.time.nanoseconds)
        guard !overflow, gap.magnitude <= Self.compassFreshness.magnitude else { return nil }
        return hub.trueHeading(of: latest, for: session)
    }
}
