import SextantProtocol

/// `replay.start`: loads a trace off the loop, then plays it (replacing one that plays).
struct ReplayStartMethod: RPCMethod {
    static let name = Method.replayStart
    let path: String
    let speed: ReplaySpeed
    let loop: Bool
    /// Pause when the virtual clock reaches this many nanoseconds since the start.
    let until: Int64?

    init(_ p: Params) throws(RPCError) {
        path = try p.requiredString("path")
        loop = try p.bool("loop") ?? false
        until = try p.seconds("until")
        switch p.members["speed"] {
        case .none, .some(.null): speed = .factor(1)
        case .some(.string("max")): speed = .max
        case .some(let value):
            guard let factor = value.doubleValue, let speed = ReplaySpeed(factor: factor) else {
                throw .invalidParams("\"speed\" must be \"max\" or a number from \(ReplaySpeed.slowest) to \(ReplaySpeed.fastest)")
            }
            self.speed = speed
        }
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(call.hub.startReplay(path: path, speed: speed, loop: loop, until: until).map { [:] })
    }
}

/// `replay.stop`: stops the replay; answers with its last progress.
struct ReplayStopMethod: RPCMethod {
    static let name = Method.replayStop
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.replay.stop()
        return .result(call.hub.replay.statusJSON)
    }
}

/// `replay.status`: the replay's progress.
struct ReplayStatusMethod: RPCMethod {
    static let name = Method.replayStatus
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(call.hub.replay.statusJSON) }
}

/// `replay.pause`: the virtual clock stops; `replay.resume` starts it again where it stood.
struct ReplayPauseMethod: RPCMethod {
    static let name = Method.replayPause
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.replay.pause()
        return .result(call.hub.replay.statusJSON)
    }
}

struct ReplayResumeMethod: RPCMethod {
    static let name = Method.replayResume
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.replay.resume()
        return .result(call.hub.replay.statusJSON)
    }
}

/// `replay.step`: while paused, the next `count` samples (default 1) now.
struct ReplayStepMethod: RPCMethod {
    static let name = Method.replayStep
    let count: Int

    init(_ p: Params) throws(RPCError) {
        let count = try p.number("count") ?? 1
        guard count >= 1, count <= 1_000_000, count == count.rounded() else {
            throw .invalidParams("\"count\" must be a whole number from 1 to 1000000")
        }
        self.count = Int(count)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let played = try call.hub.replay.step(count)
        var status = call.hub.replay.statusJSON.objectValue ?? [:]
        status["stepped"] = .int(Int64(played))
        return .result(.object(status))
    }
}

/// `replay.seek`: the virtual clock jumps to `position` seconds into the current lap; the
/// samples in between are not played.
struct ReplaySeekMethod: RPCMethod {
    static let name = Method.replaySeek
    let position: Int64

    init(_ p: Params) throws(RPCError) {
        guard let position = try p.seconds("position") else { throw .invalidParams("\"position\" is required (seconds)") }
        self.position = position
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.replay.seek(to: position)
        return .result(call.hub.replay.statusJSON)
    }
}

extension Params {
    /// A time in seconds from 0 to a billion (what a trace's `t` may be), in nanoseconds.
    func seconds(_ key: String) throws(RPCError) -> Int64? {
        guard let value = try number(key) else { return nil }
        guard value >= 0, value <= 1e9 else { throw .invalidParams("\"\(key)\" must be a number of seconds from 0 to 1e9") }
        return Int64((value * 1e9).rounded())
    }
}

/// `record.start`: every sample from now on goes to a trace file too.
struct RecordStartMethod: RPCMethod {
    static let name = Method.recordStart
    let path: String

    init(_ p: Params) throws(RPCError) { path = try p.requiredString("path") }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.startRecording(to: path)
        return .result([:])
    }
}

/// `record.stop`: closes the recording; answers with its path and sample count.
struct RecordStopMethod: RPCMethod {
    static let name = Method.recordStop
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let recorder = try call.hub.stopRecording()
        return .result(["path": .string(recorder.path), "events": .int(Int64(recorder.count)), "skipped": .int(Int64(recorder.skipped))])
    }
}
