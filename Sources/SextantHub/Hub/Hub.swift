import Foundation
import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantProtocol
import SextantTraces
import SextantStore

/// Settings the hub needs from the command line.
public struct HubConfiguration: Sendable {
    public var profile: DeviceProfile = .phone
    /// `--platform`: the phone whose rules the engines decide by (docs/platforms.md).
    public var platform: DevicePlatform = .ios
    /// The uid the control socket serves besides root.
    public var ownerUID: UInt32 = UInt32(getuid())
    /// `--control-group`: its members may use the control socket too.
    public var controlGroup: UInt32?
    /// The grace G of "in use" (docs/platforms.md I8, RULES L5): 10 s unless `--allow-once-timeout`.
    public var allowOnceBackgroundLimit: Duration = .nanoseconds(AuthorizationEngine.defaultAllowOnceBackgroundLimit)
    /// Default speed for GPX routes without times (m/s).
    public var gpxSpeed: Double = 1.4
    /// Seconds between fixes interpolated along GPX routes without times; nil for the points alone.
    public var gpxInterval: Double?
    /// Whose fixes a GnssLogger recording plays (`--gnss-provider`).
    public var gnssProvider: GnssProvider = .automatic
    /// `--gnss-profile` and `--seed`: what every source's fixes pass through (RULES N1–N5).
    public var gnssProfile: GNSSProfileSpec?
    public var gnssSeed: UInt64 = 1
    /// `--simulated-flag` (RULES N7).
    public var simulatedFlag = SimulatedFlag.auto
    public var version: String = sextantVersion
    /// Connections flushed per turn of the loop (``FlushBatcher``). Fewer only for tests.
    public var flushesPerTurn = 128
    /// `--ephemeral`: the store, and with it the prompt policy, goes with the daemon.
    public var storeIsEphemeral = false
    /// `--max-apps-per-uid` (docs/security.md).
    public var maxAppsPerUID = defaultMaxAppsPerUID
    /// What the services read of the command line (`Services/ServiceSettings.swift`).
    public var services = ServiceSettings()

    public init() {}
}

/// The one owner of mutable state: sessions, engines, sources, replay, recording.
///
/// Everything runs on a single event loop: sockets, timers and sources hop onto it, so
/// there is no lock and one order of events. Requests and samples go in; the engines
/// decide; events go out to sessions through their bounded outboxes; decisions that must
/// survive go to the store. Other threads hold it as a ``HubHandle``, which lets them
/// reach it only on its loop.
public final class Hub {
    package let eventLoop: EventLoop
    package let logger: Logger
    let configuration: HubConfiguration
    /// Written through GRDB's one serialized writer, in the order asked (Hub+Store).
    let store: SextantStore
    /// For loading trace files without stalling the loop.
    let fileThread: NIOThreadPool

    /// Where the hub reads the time: monotonic from the event loop (so NIO's testing loops
    /// drive it), wall from the system unless a test gives its own.
    package let clock: SextantClock
    /// The device's clock over the host's, and the timers engines decided on it (RULES
    /// C1–C10): what `now` reads. `clock` stays the host's, for the transport.
    let deviceTime: DeviceTime
    /// Every change counts one `authorizationGeneration` (a simple `didSet`: still changed in
    /// place). Changed by the operations of this file (`applyDecision` for Hub+Store's commits).
    private(set) var authorization: AuthorizationEngine { didSet { authorizationGeneration &+= 1 } }
    /// What a session's decided accuracy was decided under (`decidedAccuracy(of:)`).
    @exclusivity(unchecked) private(set) var authorizationGeneration: UInt64 = 1
    /// Grid shifts, app-id owners and the decision being committed, written only by Hub+Store.
    let stored: StoreBackedState
    let startedAt: Int64

    /// Each socket's methods (`SocketMethods.swift`, and each service's).
    private(set) lazy var appMethods = MethodTable.appSocket(services.appMethods)
    private(set) lazy var controlMethods = MethodTable.controlSocket(services.controlMethods)
    /// The phone's services (`ServiceRegistry`): what samples and fixes are routed to. Set
    /// once, in `init` (a `var` only because they are made with the hub): unchecked, as
    /// every event published reads it and a checked access is a runtime call.
    @exclusivity(unchecked) private(set) var services: Services!

    /// The faces the daemon registered (`register(_:)`), in that order.
    private(set) var faces: [any Face] = []
    /// Each turn's writes leave in one flush per connection, a bounded number per turn.
    package private(set) lazy var flushes = FlushBatcher(eventLoop: eventLoop, connectionsPerTurn: configuration.flushesPerTurn)
    /// A replay at `max` takes its next turn after the loop's next poll (`LoopYield`).
    private(set) lazy var loopYield = LoopYield(eventLoop: eventLoop)
    /// Control peers that called `watch`, with what they watch, kept apart so that
    /// publishing an event does not look at every connection.
    let watchers = WatcherTable()
    let sessions = SessionTable()
    /// Authorization requests waiting for a decision, whoever answers them.
    private var authorizationWaiters: [RequestToken: AuthorizationWaiter] = [:]
    private var nextToken: RequestToken = 0

    /// What `status` says of each source (`setSourceState`, `updateSourceStates`).
    private(set) var sourceStates = SourceStates()
    /// Always's events held for the iOS upgrade prompt (Hub+AlwaysUpgrade, docs/platforms.md I4).
    let heldForUpgrade = HeldUpgradeEvents()
    /// The sensor arbiters and the engines that decide orientation and posture.
    let motion = MotionState()
    /// The GNSS profile and the simulated flag every fix passes through before the rules.
    let gnss: GNSSProfiles

    // Replay and recording.
    private(set) var replay: ReplayPlayer!
    /// Written by `startRecording`/`stopRecording` below.
    private(set) var recorder: TraceRecorder?
    /// The manual source's sensors: readings set by hand, held at 50 Hz (O4a); held and
    /// released through `holdByHand` and `releaseByHand` (Hub+Samples), which tell the arbiters.
    private(set) lazy var manualSensors = ManualSensors(eventLoop: eventLoop, wallTime: { [unowned self] in now.wall }) { [unowned self] sample in
        ingest(sample, from: .manual)
    }

    init(
        eventLoop: EventLoop, store: SextantStore, snapshot: StoreSnapshot, configuration: HubConfiguration, logger: Logger,
        wallClock: (@Sendable () -> Timestamp)? = nil
    ) {
        self.eventLoop = eventLoop
        self.clock = SextantClock(
            monotonicNanoseconds: { Int64(clamping: eventLoop.now.uptimeNanoseconds) },
            wallTime: wallClock ?? SextantClock.system.wallTime)
        self.startedAt = clock.monotonicNanoseconds()
        self.deviceTime = DeviceTime(eventLoop: eventLoop) { [clock] in EngineTime(monotonic: clock.monotonicNanoseconds(), wall: clock.wallTime()) }
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.fileThread = NIOThreadPool(numberOfThreads: 1)
        fileThread.start()
        self.authorization = AuthorizationEngine(
            platform: configuration.platform, servicesEnabled: snapshot.servicesEnabled, permissions: snapshot.permissions, policy: snapshot.policy,
            allowOnceBackgroundLimit: TimeAmount(configuration.allowOnceBackgroundLimit).nanoseconds, android: snapshot.androidPermissions,
            iosFacets: snapshot.iosFacets)
        self.stored = StoreBackedState(snapshot: snapshot)
        self.gnss = GNSSProfiles(spec: configuration.gnssProfile, seed: configuration.gnssSeed, simulatedFlag: configuration.simulatedFlag)
        self.replay = ReplayPlayer(hub: self)
        self.services = Services(hub: self, stored: snapshot)
    }

    /// Stops timers and the faces after the sockets are closed (`HubHandle.shutdown`).
    func stopOnLoop() {
        replay.stop()
        manualSensors.releaseAll()
        _ = try? stopRecording()
        for face in faces { face.close() }
        loopYield.close()
    }

    // MARK: - Clocks

    /// The device's time (RULES C1): what engines decide on and the stamps people read.
    var now: EngineTime { deviceTime.now }

    // MARK: - Faces and connections

    /// What `status` says of a source from now on.
    @_spi(Sources) public func setSourceState(_ source: SourceName, _ state: SourceState) { sourceStates.set(source, state) }

    /// The same for one of `SourceStates`' other operations (the gpsd source's details).
    @_spi(Sources) public func updateSourceStates(_ operation: (inout SourceStates) -> Void) { operation(&sourceStates) }

    // MARK: - Recording

    /// `record.start`: from now on every sample the hub ingests is written to `path` too,
    /// opened off the loop with `access`'s rights (a control client's own: `PeerFileAccess`).
    func startRecording(to path: String, access: PeerFileAccess = .daemons) -> EventLoopFuture<Void> {
        if let recorder { return eventLoop.makeFailedFuture(Self.alreadyRecording(to: recorder.path)) }
        return fileThread.runIfActive(eventLoop: eventLoop) {
            access.perform(on: path, writing: true) { TraceRecorder.openFile($0) }
        }.assumeIsolated().flatMapThrowing { [self] opened in
            let fd: Int32
            switch opened {
            case .failure(let refusal): throw RPCError(.sourceUnavailable, "cannot write \(path): \(refusal)", data: ["path": .string(path)])
            case .success(.failure(let reason)): throw RPCError(.sourceUnavailable, "cannot write \(path): \(reason)", data: ["path": .string(path)])
            case .success(.success(let descriptor)): fd = descriptor
            }
            if let recorder {
                close(fd)
                throw Self.alreadyRecording(to: recorder.path)
            }
            recorder = TraceRecorder(path: path, fd: fd, profile: configuration.profile)
        }.nonisolated()
    }

    private static func alreadyRecording(to path: String) -> RPCError {
        RPCError(.invalidParams, "already recording to \(path): stop it first")
    }

    /// `record.stop`: closes the recording and hands it back for its path and count.
    func stopRecording() throws(RPCError) -> TraceRecorder {
        guard let recorder else { throw RPCError(.invalidParams, "not recording") }
        recorder.finish()
        self.recorder = nil
        return recorder
    }

    /// Adds a face: it shows in `status`, holds back a max-speed replay, closes with the
    /// hub and hears the changes it observes.
    package func register(_ face: any Face) {
        eventLoop.preconditionInEventLoop()
        faces.append(face)
    }

    /// A peer of a method table is gone: what it watched, asked and opened goes with it.
    func peerClosed(_ peer: any RPCPeer) {
        eventLoop.preconditionInEventLoop()
        peer.close()
        watchers.remove(peer)
        authorizationWaiters = authorizationWaiters.filter { !$0.value.belongs(to: peer) }
        if let id = peer.session { closeSession(id) }
        replay.clientDrained()
    }

    /// The app's session ended, whatever face it came through (its allowOnce lapses, L5).
    func closeSession(_ id: SessionID) {
        guard let session = sessions.close(id) else { return }
        _ = heldForUpgrade.take(id)
        services.sessionClosed(session)
        perform(authorization.closeSession(id, at: now))
        sessionClosed(session)
    }

    // MARK: - Authorization requests

    /// A token for `peer`'s request `id`, answered with the decision (none for a notification).
    func makeToken(for peer: any RPCPeer, id: JSONValue?) -> RequestToken {
        makeToken(answeredBy: id.map { AuthorizationWaiter.request(peer: peer, id: $0) })
    }

    /// A token for a request: `waiter` hears the decision. With none, no one waits for the
    /// answer: a face without request ids (gpsd's) hears it as the session's `authorization` event.
    func makeToken(answeredBy waiter: AuthorizationWaiter? = nil) -> RequestToken {
        nextToken += 1
        if let waiter { authorizationWaiters[nextToken] = waiter }
        return nextToken
    }

    /// The request's waiter, if any, hears `result`; nothing waits for the token after.
    func answerAuthorization(_ token: RequestToken, _ result: Result<AuthorizationSnapshot, RPCError>) {
        authorizationWaiters.removeValue(forKey: token)?.answer(result)
    }

    /// Nothing waits for the token any more (a GeoClue client freed before its `Start` was
    /// answered; a request its caller answers itself); returns what waited.
    @discardableResult
    func forgetAuthorizationWaiter(_ token: RequestToken) -> AuthorizationWaiter? {
        authorizationWaiters.removeValue(forKey: token)
    }

    func openSession(app: String, state: AppState, interface: AppInterfaceOrientation, peer: any RPCPeer) -> AppSession {
        let session = openSession(app: app, state: state, interface: interface, output: peer)
        peer.session = session.id
        return session
    }

    /// Opens a session for an app that came through any face.
    func openSession(app: String, state: AppState, interface: AppInterfaceOrientation, output: SessionOutput) -> AppSession {
        let session = sessions.open(app: app, output: output, interface: interface)
        services.sessionOpened(session)  // owed no sample decided before it came
        perform(authorization.openSession(session.id, app: app, state: state, at: now))
        sessionOpened(session, state: state)
        return session
    }

    // MARK: - Effects

    /// Carries out what the authorization engine decided, in order. The future completes
    /// once every store write among the effects is on disk.
    @discardableResult
    func perform(_ effects: [AuthorizationEffect]) -> EventLoopFuture<Void> {
        if !effects.isEmpty { services.fixes.effectsComing() }  // what came before is decided under the rules in force until now
        var changes: [StoreChange] = []
        for effect in effects {
            switch effect {
            case .authorizationChanged(let id, let snapshot):
                guard let session = sessions[id] else { continue }
                services.fixes.settle(session)  // what it is owed is decided under the new authorization
                let accuracy = authorization.locationAccuracy(for: id)
                if accuracy == nil {
                    // L9: not one more location-derived event after the change.
                    session.output.discardQueuedLocations()
                    services.fixes.refuse(session, authorizationError(for: id))
                } else if accuracy == .reduced {
                    // L10, R10: nothing queued at full accuracy leaves after a reduction.
                    session.output.discardQueuedLocations()
                }
                publish(to: session, AuthorizationEvent(snapshot: snapshot))
                services.authorizationChanged(session, snapshot)
                sessionChanged(session)
            case .reply(let token, let snapshot):
                answerAuthorization(token, .success(snapshot))
            case .promptOpened(let prompt):
                logger.info("prompt opened", metadata: ["prompt": "\(prompt.id)", "app": "\(prompt.app)", "kind": "\(prompt.kind.rawValue)"])
                broadcastToWatchers(Event.prompt, prompt.json, app: prompt.app)
                services.conditionsChanged()
            case .promptClosed(let prompt, let outcome):
                var params = prompt.json.objectValue ?? [:]
                switch outcome {
                case .answered(let choice, let precise):
                    params["choice"] = .string(choice.rawValue)
                    params["precise"] = .bool(precise)
                case .cancelled(let reason):
                    params.merge(["choice": .null, "cancelled": true, "reason": .string(reason.rawValue)]) { $1 }
                }
                logger.info("prompt closed", metadata: ["prompt": "\(prompt.id)", "app": "\(prompt.app)", "choice": "\(params["choice"] ?? .null)"])
                broadcastToWatchers(Event.promptClosed, .object(params), app: prompt.app)
                upgradePromptClosed(prompt, outcome)
                services.conditionsChanged()
            case .persistPermission, .persistServicesEnabled, .persistPolicy, .persistIOSFacets, .persistAndroidPermission, .persistMotionPermission, .persistMotionDenials:
                changes += Self.storeChange(effect).map { [$0] } ?? []
            case .servicesEnabledChanged(let enabled):
                logger.info("Location Services switched \(enabled ? "on" : "off")")
                let event = SharedEvent(ServicesEnabledEvent(enabled: enabled))
                for session in sessions.ordered {
                    publish(to: session, event)
                }
                observed(ServicesEnabledChanged(enabled: enabled))
            case .motionPermissionChanged:
                services.conditionsChanged()  // the activity service ends or resumes what depends on it (A11)
            case .scheduleExpiryCheck(let at):
                // On the device's clock (C6); just after `at`, as the engine expires what
                // has been in the background longer than its limit.
                deviceTime.schedule(at: at.addingClamped(1_000_000)) { [self] in
                    perform(authorization.expireAllowOnce(at: now))
                }
            }
        }
        return write(changes, from: .control)  // the engine's own effects: never refused for a limit
    }

    /// A decision takes effect on the live engine (Hub+Store's `commitDecision`, once its
    /// write is committed).
    func applyDecision<Value, Failure: Error>(_ change: (inout AuthorizationEngine) throws(Failure) -> Value) throws(Failure) -> Value {
        try change(&authorization)
    }

    /// Whether a session may ask for locations now (L7 before L1/L8); a refusal's alert is
    /// raised before the refusal is thrown.
    func checkLocationAccess(_ session: AppSession) throws(RPCError) {
        let outcome = authorization.checkLocationAccess(session.id, at: now)
        perform(outcome.effects)
        if let refusal = outcome.refusal { throw refusal.rpcError }
    }

    func authorizationError(for id: SessionID) -> RPCError {
        authorization.servicesEnabled ? AuthorizationRefusal.notAuthorized.rpcError : AuthorizationRefusal.servicesDisabled.rpcError
    }

    // MARK: - Publishing

    /// Whether `event` may leave for `session`, whatever its kind and its face: the session
    /// hears the event's topic, and a location-derived event only while the rules let the
    /// session have locations (L9: the decision a fix's delivery reads, `decidedAccuracy(of:)`).
    func mayLeave(_ event: any AppEventKind, for session: AppSession) -> Bool {
        mayLeave(event.topic, event.isLocationDerived, event.needsFullAccuracy, for: session)
    }

    private func mayLeave(_ topic: AppTopic, _ isLocationDerived: Bool, _ needsFullAccuracy: Bool, for session: AppSession) -> Bool {
        guard session.hears(topic) else { return false }
        guard isLocationDerived else { return true }
        guard let accuracy = decidedAccuracy(of: session) else { return false }
        return accuracy == .full || !needsFullAccuracy
    }

    /// Sends an event to an app session, if it may have it, and a copy to the watchers.
    func publish(to session: AppSession, _ event: any AppEventKind) {
        services.fixes.settle(session)  // the fixes it is owed first (its place in the fan-out)
        guard mayLeave(event, for: session) else { return }
        if type(of: event).needsAlwaysInBackground, heldForAlwaysUpgrade(event, for: session) { return }
        session.output.deliver(event)
        broadcastToWatchers(event.method, event.params, app: session.app, session: session.id, kind: event.outboundKind, delivered: true)
    }

    /// The same for an event that goes to many sessions, encoded once for all of them.
    func publish(to session: AppSession, _ shared: SharedEvent) {
        services.fixes.settle(session)
        publish(toSettled: session, shared)
    }

    /// The same, from the fan-out to a session it owes nothing (it has just taken what it
    /// was owed): the question `settle` asks is not asked again.
    func publish(toSettled session: AppSession, _ shared: SharedEvent) {
        guard mayLeave(shared.topic, shared.isLocationDerived, shared.needsFullAccuracy, for: session) else { return }
        session.deliver(shared)
        if !watchers.isEmpty, shared.mayBeWatched(by: watchers) {
            broadcastToWatchers(
                shared.event.method, shared.event.params, app: session.app, session: session.id, kind: shared.event.outboundKind, delivered: true)
        }
    }
}
