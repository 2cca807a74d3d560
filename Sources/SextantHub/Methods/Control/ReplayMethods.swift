import SextantProtocol
import SextantTraces

/// `replay.start`: loads a trace off the loop, then plays it (replacing one that plays).
struct ReplayStartMethod: RPCMethod {
    static let name = Method.replayStart
    let path: String
    let speed: ReplaySpeed
    let loop: Bool
    /// Pause when the virtual clock reaches this many nanoseconds since the start.
    let until: Int64?
    /// Paused at the start until the first location request (RULES T1).
    let startOnRequest: Bool
    let scenario: String?
    /// Whose fixes a GnssLogger recording plays; nil for the daemon's `--gnss-provider`.
    let gnssProvider: GnssProvider?

    init(_ p: Params) throws(RPCError) {
        let request = try ReplayStart(p)
        (path, speed, loop, scenario) = (request.path, request.speed, request.loop ?? false, request.scenario)
        until = request.until.map(Self.nanoseconds)
        startOnRequest = request.startOnRequest ?? false
        if let name = request.gnssProvider {
            guard let provider = GnssProvider(option: name) else {
                throw .invalidParams("gnssProvider must be one of \(GnssProvider.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
            }
            gnssProvider = provider
        } else {
            gnssProvider = nil
        }
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let access = PeerFileAccess(peer: call.peer.credentials)
        let started = call.hub.startReplay(
            path: path, scenario: scenario, speed: speed, loop: loop, until: until, startOnRequest: startOnRequest, gnssProvider: gnssProvider, access: access)
        return .later(started.map { [:] })
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

/// `replay.resume`, with `until`: the clock pauses again at that many seconds of the lap.
struct ReplayResumeMethod: RPCMethod {
    static let name = Method.replayResume
    let until: Int64?

    init(_ p: Params) throws(RPCError) { until = try ReplayResume(p).until.map(ReplayStartMethod.nanoseconds) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.replay.resume(until: until)
        return .result(call.hub.replay.statusJSON)
    }
}

/// `replay.step`: while paused, the next `count` samples (default 1) now.
struct ReplayStepMethod: RPCMethod {
    static let name = Method.replayStep
    let count: Int

    init(_ p: Params) throws(RPCError) {
        count = try ReplayStep(p).count ?? 1
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let replay: ReplayPlayer = call.hub.replay
        return .later(
            try replay.step(count).assumeIsolated().map { played in
                var status = replay.status
                status.stepped = played
                return status.json
            }.nonisolated())
    }
}

/// `replay.seek`: the virtual clock jumps to `position` seconds into the current lap; the
/// samples in between are not played.
struct ReplaySeekMethod: RPCMethod {
    static let name = Method.replaySeek
    let position: Int64

    init(_ p: Params) throws(RPCError) {
        position = ReplayStartMethod.nanoseconds(try ReplaySeek(p).position)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.replay.seek(to: position)
        return .result(call.hub.replay.statusJSON)
    }
}

extension ReplayStartMethod {
    /// Seconds of a trace (at most a billion: ``Params/seconds(_:)``) in nanoseconds.
    static func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }
}

/// `record.start`: every sample from now on goes to a trace file too.
struct RecordStartMethod: RPCMethod {
    static let name = Method.recordStart
    let path: String

    init(_ p: Params) throws(RPCError) { path = try RecordStart(p).path }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(call.hub.startRecording(to: path, access: PeerFileAccess(peer: call.peer.credentials)).map { [:] })
    }
}

/// `record.stop`: closes the recording; answers with its path and sample count.
struct RecordStopMethod: RPCMethod {
    static let name = Method.recordStop
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let recorder = try call.hub.stopRecording()
        return .result(RecordResult(path: recorder.path, events: recorder.count, skipped: recorder.skipped).json)
    }
}
