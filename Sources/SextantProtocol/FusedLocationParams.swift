/// `location.start`'s members under the Android profile (docs/platforms.md AN34), named as
/// Android's `LocationRequest.Builder` names them: `priority` (`highAccuracy`, `balanced`,
/// `lowPower`, `passive`), `intervalMillis`, `minUpdateIntervalMillis`,
/// `minUpdateDistanceMeters`, `maxUpdateDelayMillis`, `durationMillis`, `maxUpdates`; and
/// `foregroundServiceType` (`location` or another type) when the app asks from a foreground
/// service it runs. The iOS members (`desiredAccuracy`, `distanceFilter`) are not read there.
public struct FusedLocationParams: Sendable, Equatable {
    public var priority: String?
    public var intervalMillis: Int64?
    public var minUpdateIntervalMillis: Int64?
    public var minUpdateDistanceMeters: Double?
    public var maxUpdateDelayMillis: Int64?
    public var durationMillis: Int64?
    public var maxUpdates: Int64?
    public var foregroundServiceType: String?

    /// The interval a request that names none gets: Android's builder has no default, but an
    /// app.sock client written for iOS names none (Sextant's choice: 1 s, the fix rate of a
    /// phone's receiver).
    public static let defaultIntervalMillis: Int64 = 1000

    public init(_ p: Params) throws(RPCError) {
        priority = try p.string("priority")
        intervalMillis = try Self.millis(p, "intervalMillis")
        minUpdateIntervalMillis = try Self.millis(p, "minUpdateIntervalMillis")
        minUpdateDistanceMeters = try p.number("minUpdateDistanceMeters")
        maxUpdateDelayMillis = try Self.millis(p, "maxUpdateDelayMillis")
        durationMillis = try Self.millis(p, "durationMillis")
        maxUpdates = try Self.millis(p, "maxUpdates")
        foregroundServiceType = try p.string("foregroundServiceType")
    }

    /// A whole number (milliseconds, a count), or nil when absent.
    private static func millis(_ p: Params, _ key: String) throws(RPCError) -> Int64? {
        guard let value = try p.number(key) else { return nil }
        guard value == value.rounded(), abs(value) < 9.2e18 else { throw .invalidParams("\"\(key)\" must be a whole number") }
        return Int64(value)
    }
}
