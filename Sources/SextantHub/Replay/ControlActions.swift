import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// The control actions a trace's control lines (or a scenario file) may hold, played on the
/// replay's clock through the control socket's own method table, so that they obey the
/// same checks as `sextantctl`; and the ones a recording writes (sextant-trace(5), CONTROL
/// LINES).
enum ControlActions {
    /// The control methods that change the state the rules decide on.
    static let played: Set<String> = [
        Method.servicesSet, Method.permissionsSet, Method.permissionsReset, Method.promptsAnswer, Method.promptsPolicy,
        Method.appsUpdate, Method.deviceSet, Method.deviceRotationLock, Method.gnssProfile,
        Method.timeZoneSet,
        // Time travel between the same two samples at every speed (RULES C3–C5).
        Method.timeAdvance, Method.timeSet, Method.timeReset,
    ]

    /// What a recording writes as control lines: what is played, but `device.set`, whose
    /// fix, hinge angle and held acceleration reach the recording as samples.
    static let recorded: Set<String> = played.subtracting([Method.deviceSet])

    /// A control line as `replay.start` checks it before anything plays: a method a trace
    /// may hold, with params it takes. Refused with 1008, its file and line.
    static func check(_ control: TraceControl, against table: MethodTable) throws(RPCError) {
        func refuse(_ reason: String) -> RPCError {
            RPCError(
                .invalidTrace, "\(control.place): \(reason)",
                data: ["path": .string(control.path), "line": .int(Int64(control.line)), "reason": .string(reason)])
        }
        guard played.contains(control.method) else {
            throw refuse("control.method \"\(control.method)\" cannot be played; one of: \(played.sorted().joined(separator: ", "))")
        }
        do throws(RPCError) {
            try table.check(control.method, params: control.params)
        } catch {
            throw refuse("\(control.method): \(error.message)")
        }
    }

    /// The params a recording writes for an action that succeeded: those given, but with
    /// what holds only in this daemon's run (a prompt's id, a session's number) replaced
    /// by what holds in any (the app), and the GNSS profile's seed written out.
    static func recordedParams(_ method: String, params: JSONValue?, result: JSONValue) -> JSONValue {
        guard case .object(var members) = params ?? .object([:]) else { return params ?? .null }
        switch method {
        case Method.promptsAnswer where members["id"] != nil:
            members["id"] = nil
            members["app"] = result["app"]
            members["kind"] = result["kind"]
        case Method.appsUpdate where members["session"] != nil:
            members["session"] = nil
            members["app"] = result.arrayValue?.first?["app"]
        case Method.gnssProfile:
            members["seed"] = result["seed"]
        default:
            break
        }
        return .object(members)
    }
}

extension Hub {
    /// Plays a control action of the replay, through the control method table, as
    /// `sextantctl` would call it; the samples it sets by hand are stamped `time`, the
    /// replay's. Answers a future when the action completes later (a store write), nil
    /// when it is done.
    func playControl(_ control: TraceControl, at time: Timestamp) -> Result<EventLoopFuture<JSONValue>?, RPCError> {
        let peer = ReplayActionPeer(label: "replay \(control.place)")
        let reply = controlMethods.dispatch(control.method, params: control.params, id: .string(control.place), on: peer, hub: self, sampleTime: time)
        record(control.method, params: control.params, reply: reply)
        switch reply {
        case .result, .deferred: return .success(nil)
        case .error(let error): return .failure(error)
        case .later(let future): return .success(future)
        }
    }

    /// Writes a control action that changes state into the recording, if one runs, once
    /// it has succeeded: after the samples decided before it.
    func record(_ method: String, params: JSONValue?, reply: Reply) {
        guard recorder != nil, ControlActions.recorded.contains(method) else { return }
        switch reply {
        case .result(let result):
            recorder?.recordControl(method: method, params: ControlActions.recordedParams(method, params: params, result: result))
        case .later(let future):
            future.assumeIsolated().whenSuccess { [self] result in
                recorder?.recordControl(method: method, params: ControlActions.recordedParams(method, params: params, result: result))
            }
        case .error, .deferred:
            break
        }
    }
}

/// Who calls a control method that a replay plays: no connection, nobody to answer (the
/// replay hears the reply), and no app session.
final class ReplayActionPeer: RPCPeer {
    let label: String
    var socket: SocketKind { .control }
    var credentials: PeerCredentials? { nil }
    var session: SessionID?
    var isClosed: Bool { false }
    var heldFrames: [InboundFrame]?
    var peer: PeerCredentials? { nil }
    var face: String { "replay" }

    init(label: String) { self.label = label }

    func respond(_ id: JSONValue, _ result: Result<JSONValue, RPCError>) {}
    func notify(_ method: String, _ params: JSONValue, kind: OutboundKind) {}
    func close() {}
    func sendAndClose(_ message: RPCMessage) {}
    func setReading(_ reading: Bool) {}
    func deliver(_ event: any AppEventKind) {}
    func discardQueuedLocations() {}
}
