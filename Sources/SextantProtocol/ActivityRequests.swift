/// What the device is doing, as Core Motion's `CMMotionActivity` flags and Android's
/// `DetectedActivity` types name it (RULES A1): stationary is Android's STILL, automotive its
/// IN_VEHICLE, cycling its ON_BICYCLE.
public enum ActivityType: String, Sendable, CaseIterable, Codable {
    case stationary, walking, running, cycling, automotive
}

/// How sure the engine is of an activity (`CMMotionActivityConfidence`), rising with the
/// time it has held (RULES A4).
public enum ActivityConfidence: String, Sendable, CaseIterable, Codable {
    case low, medium, high
}

/// An Android activity transition: the device began (enter) or ended (exit) an activity.
public enum ActivityTransitionKind: String, Sendable, CaseIterable, Codable {
    case enter, exit
}

/// `activity.start`: `activity` events, one each time the activity or its confidence
/// changes (iOS `startActivityUpdates`), the current one first when there is one.
public struct ActivityStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.activityStart
    public init() {}
}

public struct ActivityStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.activityStop
    public init() {}
}

/// `activity.transitions.start`: `activityTransition` events for the activities named in
/// `types` (all when absent) and the `transitions` named (enter and exit when absent), as
/// Android's `ActivityTransitionRequest` asks for them. Starting again replaces the request.
public struct ActivityTransitionsStart: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.activityTransitionsStart
    public var types: [ActivityType]?
    public var transitions: [ActivityTransitionKind]?

    public init(types: [ActivityType]? = nil, transitions: [ActivityTransitionKind]? = nil) {
        self.types = types
        self.transitions = transitions
    }

    public init(_ p: Params) throws(RPCError) {
        types = try Self.names("types", in: p, as: ActivityType.self)
        transitions = try Self.names("transitions", in: p, as: ActivityTransitionKind.self)
    }

    /// A list of names of `T`, nil when absent; empty only when `allowEmpty`.
    public static func names<T: RawRepresentable & CaseIterable>(
        _ key: String, in p: Params, as type: T.Type, allowEmpty: Bool = false
    ) throws(RPCError) -> [T]?
    where T.RawValue == String {
        guard let words = try p.stringList(key) else { return nil }
        var out: [T] = []
        for (index, word) in words.enumerated() {
            guard let value = T(rawValue: word) else {
                let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidParams("\"\(key)[\(index)]\" must be one of: \(allowed) (got \"\(word)\")")
            }
            out.append(value)
        }
        guard allowEmpty || !out.isEmpty else { throw .invalidParams("\"\(key)\" must name at least one") }
        return out
    }

    public var params: JSONValue {
        var o = WireObject()
        if let types { o["types"] = .array(types.map { .string($0.rawValue) }) }
        if let transitions { o["transitions"] = .array(transitions.map { .string($0.rawValue) }) }
        return o.json
    }
}

public struct ActivityTransitionsStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.activityTransitionsStop
    public init() {}
}

/// A span of the history (`activity.query`, `pedometer.query`): `from` and `to` as RFC 3339
/// times, `from` not after `to`. The history holds the last seven days (RULES A8).
public struct ActivitySpan: Sendable, Equatable {
    public var from: Timestamp
    public var to: Timestamp

    public init(from: Timestamp, to: Timestamp) {
        self.from = from
        self.to = to
    }

    public init(_ p: Params) throws(RPCError) {
        guard let from = try p.timestamp("from") else { throw .invalidParams("\"from\" is required") }
        guard let to = try p.timestamp("to") else { throw .invalidParams("\"to\" is required") }
        guard from <= to else { throw .invalidParams("\"from\" must not be after \"to\"") }
        self.init(from: from, to: to)
    }

    public var params: JSONValue { ["from": .string(from.rfc3339), "to": .string(to.rfc3339)] }
}

/// `activity.query`: the activities that began in the span, oldest first (iOS
/// `queryActivityStarting(from:to:)`): `{"activities": [activity…]}`.
public struct ActivityQuery: RPCRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.activityQuery
    public var span: ActivitySpan

    public init(from: Timestamp, to: Timestamp) { span = ActivitySpan(from: from, to: to) }
    public init(_ p: Params) throws(RPCError) { span = try ActivitySpan(p) }
    public var params: JSONValue { span.params }
}

/// `pedometer.start`: `pedometer` events counted from now (iOS `startUpdates(from: now)`),
/// one each time the count grows.
public struct PedometerStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.pedometerStart
    public init() {}
}

public struct PedometerStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.pedometerStop
    public init() {}
}

/// `pedometer.query`: the steps and distance in the span (iOS `queryPedometerData(from:to:)`:
/// no cadence or pace in history), as a `pedometer` event's params.
public struct PedometerQuery: RPCRequest, Equatable {
    public typealias Result = WirePedometer
    public static let method = Method.pedometerQuery
    public var span: ActivitySpan

    public init(from: Timestamp, to: Timestamp) { span = ActivitySpan(from: from, to: to) }
    public init(_ p: Params) throws(RPCError) { span = try ActivitySpan(p) }
    public var params: JSONValue { span.params }
}

/// `activity.set` (control.sock): hold an activity by hand over the recorded and the derived
/// ones (RULES A9), or give it back to them with `auto`.
public struct ActivitySet: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.activitySet
    /// The activity held, or nil for `auto`.
    public var activity: ActivityType?

    public init(activity: ActivityType?) { self.activity = activity }

    public init(_ p: Params) throws(RPCError) {
        let word = try p.requiredString("activity")
        if word == "auto" {
            activity = nil
        } else if let held = ActivityType(rawValue: word) {
            activity = held
        } else {
            let allowed = (ActivityType.allCases.map(\.rawValue) + ["auto"]).joined(separator: ", ")
            throw .invalidParams("\"activity\" must be one of: \(allowed) (got \"\(word)\")")
        }
    }

    public var params: JSONValue { ["activity": .string(activity?.rawValue ?? "auto")] }
}
