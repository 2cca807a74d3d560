import SextantProtocol

/// `replay.start`: loads a trace off the loop, then plays it (replacing one that plays).
struct ReplayStartMethod: RPCMethod {
    static let name = Method.replayStart
    let path: String
    let speed: ReplaySpeed
    let loop: Bool

    init(_ p: Params) throws(RPCError) {
        path = try p.requiredString("path")
        loop = try p.bool("loop") ?? false
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
        .later(call.hub.startReplay(path: path, speed: speed, loop: loop).map { [:] })
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
