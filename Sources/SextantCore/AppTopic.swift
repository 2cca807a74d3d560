import Synchronization

/// A family of events an app session subscribes to, by its name. A sensor kind declares
/// the topic of what the engines decide from its readings (``SensorKind/topic``) and an app
/// event kind the topic it belongs to: one value for both, so a new topic (`heading`) is a
/// name where it is declared, not a case added elsewhere. A session hears an event only
/// while subscribed to its topic.
///
/// Each name is given a small number the first time it is made (``index``), and topics are
/// compared, hashed and kept in sets (``TopicSet``) by that number: every delivery asks
/// whether the session hears the event's topic, and a string compared there was a twentieth
/// of a replay's time.
public struct AppTopic: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Its number among the topics made in this process, below ``TopicSet/capacity``.
    public let index: Int

    public init(_ name: String) { index = Self.names.withLock { $0.index(of: name) } }
    public init(stringLiteral name: String) { self.init(name) }

    public var name: String { Self.names.withLock { $0.names[index] } }
    public var description: String { name }

    public static func == (a: AppTopic, b: AppTopic) -> Bool { a.index == b.index }
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }

    /// The names given a number so far: a handful, declared once each (a topic is a
    /// service's, not a client's: no client's string becomes one).
    private static let names = Mutex(Names())

    private struct Names {
        var names: [String] = []
        var indices: [String: Int] = [:]

        mutating func index(of name: String) -> Int {
            if let index = indices[name] { return index }
            precondition(names.count < TopicSet.capacity, "more than \(TopicSet.capacity) app topics")
            indices[name] = names.count
            names.append(name)
            return names.count - 1
        }
    }

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

/// A set of topics as the bits of one word: what a session subscribed to, asked on every
/// delivery.
public struct TopicSet: Equatable, Sendable, Sequence {
    public static let capacity = 64
    private var bits: UInt64 = 0

    public init() {}
    public init(_ topics: [AppTopic]) { for topic in topics { insert(topic) } }

    public func contains(_ topic: AppTopic) -> Bool { bits & (1 << UInt64(topic.index)) != 0 }
    public var isEmpty: Bool { bits == 0 }

    /// Returns whether it was not there.
    @discardableResult
    public mutating func insert(_ topic: AppTopic) -> Bool {
        defer { bits |= 1 << UInt64(topic.index) }
        return !contains(topic)
    }

    /// Returns whether it was there.
    @discardableResult
    public mutating func remove(_ topic: AppTopic) -> Bool {
        defer { bits &= ~(1 << UInt64(topic.index)) }
        return contains(topic)
    }

    public func makeIterator() -> AnyIterator<AppTopic> {
        var rest = bits
        return AnyIterator {
            guard rest != 0 else { return nil }
            let index = rest.trailingZeroBitCount
            rest &= rest - 1
            return AppTopic(index: index)
        }
    }
}

extension AppTopic {
    fileprivate init(index: Int) { self.index = index }
}
