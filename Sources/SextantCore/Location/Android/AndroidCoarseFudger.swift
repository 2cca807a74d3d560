#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// Approximate location under the Android profile (docs/platforms.md AN20–AN24), with the
/// numbers of AOSP's `services/core/java/com/android/server/location/fudger/LocationFudger.java`:
/// a random offset (Gaussian, σ = accuracy/4 on each axis) that moves by a small step once
/// an hour, then a snap to a grid whose step is the coarse accuracy. The offset hides where
/// the grid's lines fall; the grid hides the position. One fudger serves the whole device,
/// as AOSP keeps one per location provider, so that two coarse apps see the same coarse fix.
///
/// A pure value: the time is an input and the random numbers come from the generator it
/// holds, so a seed gives the same offsets on every run.
public struct AndroidCoarseFudger: Sendable, Equatable {
    /// AN20: `DEFAULT_COARSE_LOCATION_ACCURACY_M` (SystemSettingsHelper).
    public static let defaultAccuracy = 2000.0
    /// AN20: `MIN_ACCURACY_M`: no setting makes the grid finer than this.
    public static let minimumAccuracy = 200.0
    /// AN21: `APPROXIMATE_METERS_PER_DEGREE_AT_EQUATOR`.
    public static let metresPerDegree = 111_000.0
    /// AN21: `MAX_LATITUDE`: a metre short of the pole, so that cos(latitude) is never 0.
    public static let maximumLatitude = 90.0 - 1.0 / metresPerDegree
    /// AN23: `OFFSET_UPDATE_INTERVAL_MS`.
    public static let offsetUpdateInterval: Int64 = 60 * 60 * 1000
    /// AN23: `CHANGE_PER_INTERVAL`: the weight of the fresh offset in each step.
    public static let changePerInterval = 0.03

    /// Metres: the grid's step and the least accuracy a coarse fix claims.
    public let accuracy: Double
    /// Metres north and east the position is moved before it is snapped.
    public private(set) var latitudeOffset: Double
    public private(set) var longitudeOffset: Double
    /// When the offsets next move (AN23).
    public private(set) var nextUpdate: Timestamp
    private var generator: SeededGenerator

    /// A fudger with fresh offsets drawn at `now`.
    public init(accuracy: Double = AndroidCoarseFudger.defaultAccuracy, seed: UInt64, now: Timestamp) {
        self.accuracy = max(accuracy.isFinite ? accuracy : Self.defaultAccuracy, Self.minimumAccuracy)
        generator = SeededGenerator(seed: seed)
        latitudeOffset = 0
        longitudeOffset = 0
        nextUpdate = now
        latitudeOffset = nextRandomOffset()
        longitudeOffset = nextRandomOffset()
        nextUpdate = Self.adding(Self.offsetUpdateInterval, to: now)
    }

    /// The fix a coarse app receives for `fine` at `now` (AN21–AN24); moves the offsets first
    /// when their hour is up.
    public mutating func coarsen(_ fine: LocationFix, now: Timestamp) -> LocationFix {
        updateOffsets(now: now)
        let latitude = Self.clampedLatitude(fine.latitude)
        let longitude = Self.wrappedLongitude(fine.longitude)
        // The longitude offset is converted at the true latitude, before that moves.
        let movedLongitude = longitude + Self.wrappedLongitude(Self.degreesLongitude(longitudeOffset, atLatitude: latitude))
        let movedLatitude = latitude + Self.clampedLatitude(Self.degreesLatitude(latitudeOffset))
        let snapped = snap(latitude: movedLatitude, longitude: movedLongitude)
        return LocationFix(
            latitude: snapped.latitude, longitude: snapped.longitude,
            horizontalAccuracy: max(accuracy, fine.horizontalAccuracy), time: fine.time,
            simulated: fine.simulated, recordedSimulated: fine.recordedSimulated)
    }

    /// AN21: the nearest grid point: latitude in steps of accuracy/111 000°, longitude in
    /// steps widened by 1/cos of the (moved, unsnapped) latitude.
    public func snap(latitude: Double, longitude: Double) -> (latitude: Double, longitude: Double) {
        let latitudeStep = Self.degreesLatitude(accuracy)
        let snappedLatitude = Self.clampedLatitude((latitude / latitudeStep).rounded() * latitudeStep)
        let longitudeStep = Self.degreesLongitude(accuracy, atLatitude: latitude)
        let snappedLongitude = Self.wrappedLongitude((longitude / longitudeStep).rounded() * longitudeStep)
        return (snappedLatitude, snappedLongitude)
    }

    /// AN23: at the first coarsening at or after `nextUpdate`, each offset becomes
    /// √(1 − 0.03²)·old + 0.03·fresh, which keeps σ at accuracy/4; one step however long
    /// the wait was, and the next an hour after this coarsening.
    private mutating func updateOffsets(now: Timestamp) {
        guard now >= nextUpdate else { return }
        let newWeight = Self.changePerInterval
        let oldWeight = (1 - newWeight * newWeight).squareRoot()
        latitudeOffset = oldWeight * latitudeOffset + newWeight * nextRandomOffset()
        longitudeOffset = oldWeight * longitudeOffset + newWeight * nextRandomOffset()
        nextUpdate = Self.adding(Self.offsetUpdateInterval, to: now)
    }

    /// AN22: a Gaussian offset with σ = accuracy/4.
    private mutating func nextRandomOffset() -> Double { generator.gaussian() * (accuracy / 4) }

    static func degreesLatitude(_ metres: Double) -> Double { metres / metresPerDegree }

    static func degreesLongitude(_ metres: Double, atLatitude latitude: Double) -> Double {
        let cosine = cos(latitude * .pi / 180)
        // AOSP's guard right at a pole, where a longitude step has no width.
        if cosine == 0 { return 0.0001 }
        return metres / metresPerDegree / cosine
    }

    static func clampedLatitude(_ latitude: Double) -> Double { min(max(latitude, -maximumLatitude), maximumLatitude) }

    static func wrappedLongitude(_ longitude: Double) -> Double {
        var wrapped = longitude.truncatingRemainder(dividingBy: 360)
        if wrapped >= 180 { wrapped -= 360 }
        if wrapped < -180 { wrapped += 360 }
        return wrapped
    }

    static func adding(_ milliseconds: Int64, to time: Timestamp) -> Timestamp {
        let (sum, overflow) = time.nanoseconds.addingReportingOverflow(milliseconds &* 1_000_000)
        return overflow ? .latest : Timestamp(nanoseconds: sum)
    }
}
