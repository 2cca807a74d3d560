import NIOCore
import SextantCore
import SextantProtocol

/// The hub as a face sees it: every operation the faces (app.sock and control.sock, gpsd's,
/// the D-Bus services: GeoClue, iio-sensor-proxy) may ask of it, in one place. A face is a
/// target of its own, so the compiler holds it to these: it reaches no engine
/// (authorization, heading, motion), no replay, no session table, and no other face's
/// state. Each operation says what the face needs, in its terms; the hub decides how.
/// Everything here runs on the hub's loop.
///
/// Besides these, a face may use of the hub its `eventLoop`, `logger`, `clock` and
/// `flushes` (the turn's flushes a ``LineWriter`` joins), `register(_:)` itself as a
/// ``Face`` and find one with `face(_:)`; ``HubHandle`` to hop onto the loop; the
/// ``SessionOutput`` its sessions write to, and the events it encodes (``AppEventKind``); a
/// face of the method tables, the ``RPCPeer`` its connections are.
extension Hub {
    // MARK: - Sessions

    /// The interface orientation a session that is always in the foreground starts with
    /// (a gpsd or GeoClue client has no screen of its own to turn); nil never happens for
    /// a profile, whose own orientations are never an empty set.
    package func foregroundInterface() -> AppInterfaceOrientation? {
        try? AppInterfaceOrientation(declared: nil, state: .foreground, conditions: interfaceConditions)
    }

    /// Opens a session for `app` in the foreground; its events go to `output`.
    package func openForegroundSession(app: String, interface: AppInterfaceOrientation, output: any SessionOutput) -> AppSession {
        openSession(app: app, state: .foreground, interface: interface, output: output)
    }

    /// The session ended (its client is gone): its allowOnce lapses (L5), a waiting request is answered.
    package func endSession(_ session: AppSession) { closeSession(session.id) }

    /// Binds `app` to `uid` as app.sock's `hello` does (docs/security.md), then runs `open`:
    /// now (nil), or once the binding is stored (the future). Throws 1009 for an app id of
    /// another uid.
    package func claimAppID(_ app: String, uid: UInt32, thenOpen open: @escaping () throws(RPCError) -> Void) throws(RPCError) -> EventLoopFuture<Void>? {
        let reply = try claimAppID(app, uid: uid) { () throws(RPCError) -> JSONValue in
            try open()
            return .null
        }
        guard case .later(let future) = reply else { return nil }
        return future.map { _ in () }
    }

    /// The session hears the events of `topic` (the satellites, for gpsd's `SKY`).
    package func subscribe(_ session: AppSession, to topic: AppTopic) { sessions.subscribe(session, to: topic) }

    package func unsubscribe(_ session: AppSession, from topic: AppTopic) { sessions.unsubscribe(session, from: topic) }

    /// What the session streams changed (its stream, its topics): the watchers and the
    /// fan-out learn it.
    package func streamsChanged(_ session: AppSession) { sessionChanged(session) }

    // MARK: - Authorization

    /// Whether the rules let the session have locations now (L1, L8, L9).
    package func mayReceiveLocations(_ session: AppSession) -> Bool { authorization.mayReceiveLocations(session.id) }

    /// The session's authorization status, for a refusal's words.
    package func authorizationStatus(of session: AppSession) -> AuthorizationStatus { authorization.authorization(of: session.id).status }

    /// The accuracy the session's locations leave at now; nil while none may leave.
    package func servedAccuracy(of session: AppSession) -> LocationAccuracy? { decidedAccuracy(of: session) }

    /// The Location Services switch (L1).
    package var locationServicesEnabled: Bool { authorization.servicesEnabled }

    /// Whether the session's requests waiting for a decision fill its list: a new one would be refused.
    package func isWaitingListFull(_ session: AppSession) -> Bool { authorization.isWaitingListFull(session.id) }

    /// A token for an authorization request whose decision `answer` hears (once), made
    /// before the request so that a face can keep it (to forget it if its client goes).
    package func authorizationToken(answeredBy answer: @escaping (Result<AuthorizationSnapshot, RPCError>) -> Void) -> RequestToken {
        makeToken(answeredBy: .face(answer))
    }

    /// Asks authorization at `level` for the session (RULES L4–L7), through the prompt
    /// policy as app.sock's request; `token` hears the decision.
    package func requestAuthorization(_ session: AppSession, level: AuthorizationLevel, token: RequestToken) {
        _ = requestAuthorization(session.id, level: level, token: token)
    }

    /// The same with no one waiting: the decision reaches the session as its `authorization` event.
    package func requestAuthorization(_ session: AppSession, level: AuthorizationLevel) {
        _ = requestAuthorization(session.id, level: level, token: makeToken())
    }

    /// Nothing waits for `token` any more (its client is gone).
    package func forgetAuthorizationRequest(_ token: RequestToken) { forgetAuthorizationWaiter(token) }

    // MARK: - Replay pacing

    /// A client's queue drained or it left: a max-speed replay held back for it may go on.
    package func clientDrained() { replay.clientDrained() }

    // MARK: - The device

    /// The device's orientation as the judge decided it (O1–O5).
    package var deviceOrientation: DeviceOrientation { motion.judge.orientation }

    /// The last upright orientation the judge decided, nil before any.
    package var lastUprightOrientation: DeviceOrientation? { motion.judge.lastUprightOrientation }

    // MARK: - Requests (app.sock and control.sock)

    /// Who the control socket serves (the daemon's uid, root, `--control-group`).
    package var controlAdmission: ControlAdmission {
        ControlAdmission(ownerUID: configuration.ownerUID, group: configuration.controlGroup)
    }

    /// A line a peer of a method table sent: dispatched, or held while its session opens.
    package func handle(_ frame: InboundFrame, from peer: any RPCPeer) { received(frame, on: peer) }

    /// A peer of a method table is gone: what it watched, asked and opened goes with it.
    package func peerLeft(_ peer: any RPCPeer) { peerClosed(peer) }
}
