// Replay, recording and the device set by hand (sextant-protocol(7), "Control socket").

/// `replay.start`: plays a trace (replacing one that plays); answers once it is loaded.
public struct ReplayStart: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.replayStart
    /// An absolute path, as the daemon reads it.
    public var path: String
    public var speed: ReplaySpeed
    public var loop: Bool?
    /// Pause when the replay's clock reaches this many seconds of the trace.
    public var until: Double?
    /// Wait, paused at the start, for the first location request of an app (or `replay.resume`).
    public var startOnRequest: Bool?
    /// A scenario file (an absolute path): control actions played at times of the trace.
    public var scenario: String?
    /// Whose `Fix` rows a GnssLogger recording plays (`auto`, `gps`, `flp`, `nlp`, `any`);
    /// the daemon's `--gnss-provider` when absent.
    public var gnssProvider: String?

    public init(
        path: String, speed: ReplaySpeed = .factor(1), loop: Bool? = nil, until: Double? = nil, startOnRequest: Bool? = nil, scenario: String? = nil,
        gnssProvider: String? = nil
    ) {
        self.path = path
        self.speed = speed
        self.loop = loop
        self.until = until
        self.startOnRequest = startOnRequest
        self.scenario = scenario
        self.gnssProvider = gnssProvider
    }

    public init(_ p: Params) throws(RPCError) {
        path = try p.requiredString("path")
        loop = try p.bool("loop")
        until = try p.seconds("until")
        speed = try ReplaySpeed(json: p.members["speed"])
        startOnRequest = try p.bool("startOnRequest")
        scenario = try p.string("scenario")
        gnssProvider = try p.string("gnssProvider")
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("path", path)
        o["speed"] = speed.json
        o.set("loop", loop)
        o.set("until", until)
        o.set("startOnRequest", startOnRequest)
        o.set("scenario", scenario)
        o.set("gnssProvider", gnssProvider)
        return o.json
    }
}

/// A replay's progress: what `replay.status` and the other replay methods answer, and the
/// `replay` event's params.
public struct ReplayStatus: WireValue, Equatable {
    public var path: String?
    /// Seconds into the current lap.
    public var position: Double
    public var duration: Double
    /// Samples played so far.
    public var events: Int
    public var state: ReplayState
    public var speed: ReplaySpeed
    public var loop: Bool
    public var lap: Int
    public var until: Double?
    /// `replay.step`'s answer only: how many samples the step played.
    public var stepped: Int?
    /// Paused at the start until the first location request of an app (`startOnRequest`).
    public var waitingForRequest: Bool
    /// Why a replay stopped before its end: a control action that failed (its file, line,
    /// method and error), or a trace that changed while it played.
    public var error: String?

    public init(
        path: String?, position: Double, duration: Double, events: Int, state: ReplayState, speed: ReplaySpeed, loop: Bool, lap: Int,
        until: Double?, stepped: Int? = nil, waitingForRequest: Bool = false, error: String? = nil
    ) {
        self.path = path
        self.position = position
        self.duration = duration
        self.events = events
        self.state = state
        self.speed = speed
        self.loop = loop
        self.lap = lap
        self.until = until
        self.stepped = stepped
        self.waitingForRequest = waitingForRequest
        self.error = error
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let events = try p.integer("events"), let lap = try p.integer("lap") else { throw .invalidParams("\"events\" and \"lap\" are required") }
        self.init(
            path: try p.string("path"), position: try p.requiredNumber("position"), duration: try p.requiredNumber("duration"),
            events: events, state: try p.required("state", as: ReplayState.self), speed: try ReplaySpeed(json: p.members["speed"]),
            loop: try p.requiredBool("loop"), lap: lap, until: try p.number("until"), stepped: try p.integer("stepped"),
            waitingForRequest: try p.bool("waitingForRequest") ?? false,
            error: try p.string("error"))
    }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "path": JSONValue(path), "position": .double(position), "duration": .double(duration), "events": .int(Int64(events)),
            "state": .string(state.rawValue), "speed": speed.json, "loop": .bool(loop), "lap": .int(Int64(lap)), "until": JSONValue(until),
        ]
        if let stepped { o["stepped"] = .int(Int64(stepped)) }
        if waitingForRequest { o["waitingForRequest"] = .bool(true) }
        if let error { o["error"] = .string(error) }
        return .object(o)
    }
}

/// The replay methods that take nothing and answer with the progress.
public struct ReplayStop: ParameterlessRequest, Equatable {
    public typealias Result = ReplayStatus
    public static let method = Method.replayStop
    public init() {}
}

public struct ReplayStatusRequest: ParameterlessRequest, Equatable {
    public typealias Result = ReplayStatus
    public static let method = Method.replayStatus
    public init() {}
}

public struct ReplayPause: ParameterlessRequest, Equatable {
    public typealias Result = ReplayStatus
    public static let method = Method.replayPause
    public init() {}
}

/// `replay.resume`: the replay's clock runs again; with `until`, it pauses again when it
/// reaches `until` seconds of the current lap (as `position` counts them).
public struct ReplayResume: RPCRequest, Equatable {
    public typealias Result = ReplayStatus
    public static let method = Method.replayResume
    public var until: Double?

    public init(until: Double? = nil) { self.until = until }

    public init(_ p: Params) throws(RPCError) { until = try p.seconds("until") }

    public var params: JSONValue {
        var o = WireObject()
        o.set("until", until)
        return o.json
    }
}

/// `replay.seek`: the replay's clock jumps to `position` seconds into the current lap.
public struct ReplaySeek: RPCRequest, Equatable {
    public typealias Result = ReplayStatus
    public static let method = Method.replaySeek
    public var position: Double

    public init(position: Double) { self.position = position }

    public init(_ p: Params) throws(RPCError) {
        guard let position = try p.seconds("position") else { throw .invalidParams("\"position\" is required (seconds)") }
        self.position = position
    }

    public var params: JSONValue { ["position": .double(position)] }
}

/// `replay.step`: while paused, the next `count` samples (1 when nil).
public struct ReplayStep: RPCRequest, Equatable {
    public typealias Result = ReplayStatus
    public static let method = Method.replayStep
    public var count: Int?

    public init(count: Int? = nil) { self.count = count }

    public init(_ p: Params) throws(RPCError) {
        guard let count = try p.number("count") else {
            self.count = nil
            return
        }
        guard count >= 1, count <= 1_000_000, count == count.rounded() else {
            throw .invalidParams("\"count\" must be a whole number from 1 to 1000000")
        }
        self.count = Int(count)
    }

    public var params: JSONValue {
        var o = WireObject()
        if let count { o["count"] = .int(Int64(count)) }
        return o.json
    }
}

/// `record.start`: every sample from now on goes to a trace file too.
public struct RecordStart: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.recordStart
    public var path: String
    public init(path: String) { self.path = path }
    public init(_ p: Params) throws(RPCError) { path = try p.requiredString("path") }
    public var params: JSONValue { ["path": .string(path)] }
}

/// `record.stop`: closes the recording.
public struct RecordStop: ParameterlessRequest, Equatable {
    public typealias Result = RecordResult
    public static let method = Method.recordStop
    public init() {}
}

/// What `record.stop` answers: the file, the samples written and those skipped.
public struct RecordResult: WireValue, Equatable {
    public var path: String
    public var events: Int
    public var skipped: Int

    public init(path: String, events: Int, skipped: Int) {
        self.path = path
        self.events = events
        self.skipped = skipped
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let events = try p.integer("events"), let skipped = try p.integer("skipped") else {
            throw .invalidParams("\"events\" and \"skipped\" are required")
        }
        self.init(path: try p.requiredString("path"), events: events, skipped: skipped)
    }

    public var json: JSONValue { ["path": .string(path), "events": .int(Int64(events)), "skipped": .int(Int64(skipped))] }
}

extension Params {
    /// A time in seconds from 0 to a billion (what a trace's `t` may be).
    public func seconds(_ key: String) throws(RPCError) -> Double? {
        guard let value = try number(key) else { return nil }
        guard value >= 0, value <= 1e9 else { throw .invalidParams("\"\(key)\" must be a number of seconds from 0 to 1e9") }
        return value
    }
}
