import SextantCore
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

    init(_ fix: LocationFix) {
        latitude = fix.latitude
        longitude = fix.longitude
        accuracy = fix.horizontalAccuracy
        altitude = fix.altitude ?? Self.unknownAltitude
        speed = fix.speed ?? Self.unknownSpeed
        heading = fix.course ?? Self.unknownHeading
        description = ""
        // D-Bus's (tt) is unsigned: a fix from before 1970 says the epoch.
        let nanoseconds = max(0, fix.time.nanoseconds)
        timestampSeconds = UInt64(nanoseconds / 1_000_000_000)
        timestampMicroseconds = UInt64(nanoseconds % 1_000_000_000 / 1000)
    }
}
