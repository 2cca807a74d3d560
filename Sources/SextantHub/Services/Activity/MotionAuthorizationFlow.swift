import NIOCore
import SextantCore
import SextantProtocol

/// A call waiting for the Motion & Fitness prompt (or ACTIVITY_RECOGNITION dialog) it opened
/// or joined (docs/motion.md A13, A15): it goes on when the prompt closes.
final class MotionWaiter {
    let session: AppSession
    let promptID: String
    let promise: EventLoopPromise<JSONValue>
    let action: () throws(RPCError) -> JSONValue

    init(session: AppSession, promptID: String, promise: EventLoopPromise<JSONValue>, action: @escaping () throws(RPCError) -> JSONValue) {
        (self.session, self.promptID, self.promise, self.action) = (session, promptID, promise, action)
    }
}

extension ActivityService {
    /// How many calls of one session may wait for its prompt at once; one more is refused
    /// (a client pipelining starts must not grow the daemon).
    static let maxMotionWaiters = 16

    /// A11–A15: runs `action` (a start or a query) once the app may have motion data: at once
    /// when it is authorized; after the prompt's answer when a prompt opens (iOS at the first
    /// use, Android at `activity.requestAuthorization`); else it fails with 1001 saying why.
    func withMotionAccess(_ call: MethodCall, explicit: Bool = false, _ action: @escaping () throws(RPCError) -> JSONValue) throws(RPCError) -> Reply {
        let session: AppSession = call.session
        if motionStatus(of: session.app) == .authorized { return .result(try action()) }
        guard waiters.filter({ $0.session === session }).count < Self.maxMotionWaiters else {
            throw RPCError(.tooManyRequests, "at most \(Self.maxMotionWaiters) calls may wait for the Motion & Fitness prompt at once")
        }
        let (id, time, declaration) = (session.id, hub.now, session.motionDeclaration)
        // Hub+Store: a decision the policy makes at once is committed before it applies.
        let decided = try hub.commitDecision(from: .app) { (engine: inout AuthorizationEngine) throws(RPCError) in
            engine.requestMotion(id, declaration: declaration, explicit: explicit, at: time)
        }
        let promise = hub.eventLoop.makePromise(of: JSONValue.self)
        decided.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .failure(let error): promise.fail(error)
            case .success(.decided(let status, let why)): settle(promise, session, status, why, action)
            case .success(.prompting(let prompt)):
                waiters.append(MotionWaiter(session: session, promptID: prompt, promise: promise, action: action))
                resolveWaiters()  // the prompt may have closed already
            }
        }
        return .later(promise.futureResult)
    }

    /// The calls whose prompt closed go on: authorized, their action; else 1001.
    func resolveWaiters() {
        guard !waiters.isEmpty else { return }
        let open = Set(hub.authorization.prompts.map(\.id))
        let closed = waiters.filter { !open.contains($0.promptID) }
        guard !closed.isEmpty else { return }
        waiters.removeAll { !open.contains($0.promptID) }
        for waiter in closed {
            let status = motionStatus(of: waiter.session.app)
            settle(waiter.promise, waiter.session, status, status == .notDetermined ? "the prompt closed unanswered" : nil, waiter.action)
        }
    }

    private func settle(
        _ promise: EventLoopPromise<JSONValue>, _ session: AppSession, _ status: MotionAuthorizationStatus, _ why: String?,
        _ action: () throws(RPCError) -> JSONValue
    ) {
        guard status == .authorized else { return promise.fail(Self.refusal(session.app, status, why)) }
        do { promise.succeed(try action()) } catch { promise.fail(error) }
    }

    static func refusal(_ app: String, _ status: MotionAuthorizationStatus, _ why: String?) -> RPCError {
        RPCError(
            .notAuthorized,
            "Motion & Fitness is \(status.rawValue) for \(app)" + (why.map { ": \($0)" } ?? "")
                + "; the control side can set it (motionPermissions.set, sextantctl activity permission \(app) authorized)",
            data: ["status": .string(status.rawValue)])
    }

    /// A11: what the apps no longer authorized started ends; the calls waiting for a prompt go on.
    func motionConditionsChanged() {
        resolveWaiters()
        var listening = hub.sessions.subscribers(of: .activity)
        listening += transitionSessions + pedometerSessions
        for session in listening where motionStatus(of: session.app) != .authorized { stopAll(session) }
    }
}
