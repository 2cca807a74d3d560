/// A family of events an app session subscribes to, by its name. A sensor kind declares
/// the topic of what the engines decide from its readings (``SensorKind/topic``) and an app
/// event kind the topic it belongs to: one value for both, so a new topic (`heading`) is a
/// name where it is declared, not a case added elsewhere. A session hears an event only
/// while subscribed to its topic; the server's subscription table says which methods
/// subscribe to which topic.
public struct AppTopic: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }

    public var description: String { name }

    /// Every session hears these (authorization, the services switch).
    public static let session = AppTopic("session")
    /// Asked for with `location.start` (the session's stream) or `location.once`.
    public static let location = AppTopic("location")
    public static let orientation = AppTopic("orientation")
    public static let posture = AppTopic("posture")
    /// The compass: what the heading engine decides from the magnetometer or a compass.
    public static let heading = AppTopic("heading")
    /// `significantChanges.start` (RULES S1–S3) and `visits.start` (V1–V5).
    public static let significantChanges = AppTopic("significantChanges")
    public static let visits = AppTopic("visits")
    /// Every session of an app with regions hears them: regions belong to the app, not to
    /// a session (`region.monitor`).
    public static let region = AppTopic("region")
    /// `satellites.start`: the sky (RULES N8), location-derived.
    public static let satellites = AppTopic("satellites")
    /// `motion.start`: the accelerometer's readings (RULES M1–M3).
    public static let motion = AppTopic("motion")
}
