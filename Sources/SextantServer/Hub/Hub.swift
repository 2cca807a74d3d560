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
    /// The uid the control socket serves besides root.
    public var ownerUID: UInt32 = UInt32(getuid())
    /// RULES L5's 60 s; shorter only for tests.
    public var allowOnceBackgroundLimit: Duration = .seconds(60)
    /// How long `location.once` waits for a fix before failing with 1006.
    public var locationOnceTimeout: Duration = .seconds(30)
    /// Default speed for GPX routes without times (m/s).
    public var gpxSpeed: Double = 1.4
    public var version: String = sextantVersion

    public init() {}
}

public let sextantVersion = "0.1.0"

/// The one owner of mutable state: sessions, engines, sources, replay, recording.
///
/// Everything runs on a single event loop: sockets, timers and sources hop onto it, so
/// there is no lock and one order of events. Requests and samples go in; the engines
/// decide; events go out to sessions through their bounded outboxes; decisions that must
/// survive go to the store.
public final class Hub: @unchecked Sendable {
    let eventLoop: EventLoop
    let logger: Logger
    let configuration: HubConfiguration
    private let store: SextantStore
    /// One thread: store writes happen in the order they were asked for.
    private let storeThread: NIOThreadPool
    /// For loading trace files without stalling the loop.
    let fileThread: NIOThreadPool

    /// Where the hub reads the time: monotonic from the event loop (so NIO's testing loops
    /// drive it), wall from the system unless a test gives its own.
    let clock: SextantClock
    var authorization: AuthorizationEngine
    private var fudgers: [String: LocationFudger]
    let startedAt: Int64

    /// Each socket's methods (`SocketMethods.swift`).
    private let appMethods = MethodTable.appSocket()
    private let controlMethods = MethodTable.controlSocket()

    var connections: [UInt64: Connection] = [:]
    private var nextConnectionID: UInt64 = 0
    /// Control connections that called `watch`, kept apart so that publishing an event
    /// does not look at every connection.
    private var watchers: [UInt64: Connection] = [:]
    var sessions = SessionTable()
    /// `authorization.request`s waiting for a decision.
    var pendingRequests: [RequestToken: (connection: Connection, id: JSONValue)] = [:]
    private var nextToken: RequestToken = 0

    // Location.
    var lastFix: LocationFix?
    /// Why the GPS source is gone, from its loss until the next fix: each streaming app
    /// hears it once per loss, including one that starts streaming during the loss.
    var locationLoss: String?
    var sourceStates = SourceStates()
    /// Which source the latest fix came from (the gpsd face names it as the device).
    var lastFixSource: SourceName?
    /// The gpsd face's listeners and connections (`GPSDFace/`).
    var gpsdFace = GPSDFaceRegistry()

    // Orientation and posture: the engines that decide them (RULES O1–O11, P1–P4).
    var judge = OrientationJudge()
    var rotationLock = false
    var postureEngine = PostureEngine()
    /// Which source the judge and the posture engine hear when several speak at once.
    var accelerometerArbiter = SensorArbiter()
    var hingeArbiter = SensorArbiter()
    /// The last posture decided, for `hello` and `status`; nil before the first hinge sample.
    var lastPosture: PostureChange?

    // Replay and recording.
    var replay: ReplayPlayer!
    var recorder: TraceRecorder?
    /// The manual source's accelerometer: readings set by hand, held at 50 Hz (O4a).
    lazy var manualAccelerometer = ManualAccelerometer(eventLoop: eventLoop, clock: clock) { [unowned self] sample in
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
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.storeThread = NIOThreadPool(numberOfThreads: 1)
        self.fileThread = NIOThreadPool(numberOfThreads: 1)
        storeThread.start()
        fileThread.start()
        self.authorization = AuthorizationEngine(
            servicesEnabled: snapshot.servicesEnabled, permissions: snapshot.permissions, policy: snapshot.policy,
            allowOnceBackgroundLimit: TimeAmount(configuration.allowOnceBackgroundLimit).nanoseconds)
        self.fudgers = snapshot.fudgers
        self.replay = ReplayPlayer(hub: self)
    }

    /// Stops timers and threads after the sockets are closed; flushes the store.
    func shutdown() async {
        try? await eventLoop.submit { [self] in
            replay.stop()
            manualAccelerometer.release()
            recorder?.finish()
            recorder = nil
            for connection in connections.values { connection.close() }
            for connection in gpsdFace.connections.values { connection.close() }
        }.get()
        try? await storeThread.shutdownGracefully()
        try? await fileThread.shutdownGracefully()
        store.close()
    }

    // MARK: - Clocks

    var now: EngineTime { EngineTime(monotonic: clock.monotonicNanoseconds(), wall: clock.wallTime()) }

    // MARK: - Connections

    func connectionOpened(channel: Channel, kind: SocketKind, credentials: EventLoopFuture<PeerCredentials>) -> Connection {
        eventLoop.preconditionInEventLoop()
        nextConnectionID += 1
        let connection = Connection(id: nextConnectionID, kind: kind, channel: channel, clock: clock, logger: logger)
        connections[connection.id] = connection
        connection.onDrain = { [weak self] in self?.replay.clientDrained() }
        credentials.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .success(let credentials):
                connection.credentials = credentials
                if kind == .control, credentials.uid != 0, credentials.uid != configuration.ownerUID {
                    logger.warning("control socket: refused a client of another user", metadata: ["uid": "\(credentials.uid)", "pid": "\(credentials.pid)"])
                    connection.sendAndClose(
                        .errorResponse(id: .null, error: RPCError(.forbidden, "the control socket serves only uid \(configuration.ownerUID) and root")))
                    return
                }
            case .failure(let error):
                logger.error("cannot read the peer's credentials: closing", metadata: ["error": "\(error)"])
                connection.close()
                return
            }
            // Reading starts only once the peer is known to be allowed.
            channel.read()
            _ = channel.setOption(ChannelOptions.autoRead, value: true)
        }
        logger.debug("client connected", metadata: ["client": "\(connection.label)"])
        return connection
    }

    func connectionClosed(_ connection: Connection) {
        eventLoop.preconditionInEventLoop()
        connection.close()
        connections[connection.id] = nil
        watchers[connection.id] = nil
        pendingRequests = pendingRequests.filter { $0.value.connection !== connection }
        if let id = connection.session { closeSession(id) }
        replay.clientDrained()
    }

    /// The app's session ended, whatever face it came through (its allowOnce lapses, L5).
    func closeSession(_ id: SessionID) {
        guard let session = sessions.close(id) else { return }
        session.cancelOnceWaiters()
        perform(authorization.closeSession(id))
        logger.info("app session ended", metadata: ["app": "\(session.app)", "session": "\(id)"])
    }

    // MARK: - Requests

    func received(_ frame: InboundFrame, on connection: Connection) {
        eventLoop.preconditionInEventLoop()
        guard !connection.isClosed else { return }
        switch frame {
        case .tooLong:
            logger.notice("line over 64 KiB: closing the connection", metadata: ["client": "\(connection.label)"])
            connection.sendAndClose(.errorResponse(id: .null, error: RPCError(.invalidRequest, "line longer than 65536 bytes")))
        case .line(let buffer):
            let value: JSONValue
            do {
                value = try buffer.readableBytesView.withContiguousStorageIfAvailable { bytes throws(JSONParseError) in
                    try JSONValue.parse(bytes)
                } ?? JSONValue.parse(bytes: buffer.readableBytesView)
            } catch {
                connection.respond(.null, .failure(RPCError(.parseError, "invalid JSON: \(error)")))
                return
            }
            switch RPCMessage.decode(value) {
            case .failure(let failure):
                connection.respond(failure.id, .failure(failure.error))
            case .success(.request(let id, let method, let params)):
                dispatch(method: method, params: params, id: id, on: connection)
            case .success(.notification(let method, let params)):
                // Notifications get no answer, even an error (JSON-RPC 2.0 §4.1).
                dispatch(method: method, params: params, id: nil, on: connection)
            case .success(.response), .success(.errorResponse):
                connection.respond(.null, .failure(RPCError(.invalidRequest, "the daemon takes requests, not responses")))
            }
        }
    }

    private func dispatch(method: String, params: JSONValue?, id: JSONValue?, on connection: Connection) {
        let table = connection.kind == .app ? appMethods : controlMethods
        let reply = table.dispatch(method, params: params, id: id, on: connection, hub: self)
        guard let id else { return }
        switch reply {
        case .result(let value): connection.respond(id, .success(value))
        case .error(let error): connection.respond(id, .failure(error))
        case .later(let future):
            future.assumeIsolated().whenComplete { result in
                connection.respond(id, result.mapError { ($0 as? RPCError) ?? RPCError.internalError("\($0)") })
            }
        case .deferred: break
        }
    }

    func makeToken(for connection: Connection, id: JSONValue?) -> RequestToken {
        nextToken += 1
        if let id { pendingRequests[nextToken] = (connection, id) }
        return nextToken
    }

    /// A token for a request whose answer no one waits for: a face without request ids
    /// (gpsd's) hears the decision as the session's `authorization` event.
    func makeToken() -> RequestToken {
        nextToken += 1
        return nextToken
    }

    func openSession(app: String, state: AppState, interface: AppInterfaceOrientation, connection: Connection) -> AppSession {
        let session = openSession(app: app, state: state, interface: interface, output: connection)
        connection.session = session.id
        return session
    }

    /// Opens a session for an app that came through any face.
    func openSession(app: String, state: AppState, interface: AppInterfaceOrientation, output: SessionOutput) -> AppSession {
        let session = sessions.open(app: app, output: output, interface: interface)
        authorization.openSession(session.id, app: app, state: state, at: now)
        logger.info(
            "app session started",
            metadata: [
                "app": "\(app)", "session": "\(session.id)", "face": "\(output.face)", "pid": "\(output.peer?.pid ?? 0)", "state": "\(state.rawValue)",
            ])
        return session
    }

    // MARK: - Effects

    /// Carries out what the authorization engine decided, in order. The future completes
    /// once every store write among the effects is on disk.
    @discardableResult
    func perform(_ effects: [AuthorizationEffect]) -> EventLoopFuture<Void> {
        var writes: [@Sendable (SextantStore) throws -> Void] = []
        for effect in effects {
            switch effect {
            case .authorizationChanged(let id, let snapshot):
                guard let session = sessions[id] else { continue }
                if !authorization.mayReceiveLocations(id) {
                    // L9: not one more location after the change.
                    session.output.discardQueuedLocations()
                    session.failOnceWaiters(authorizationError(for: id))
                }
                publish(to: session, .authorization(snapshot))
            case .reply(let token, let snapshot):
                if let pending = pendingRequests.removeValue(forKey: token) {
                    pending.connection.respond(pending.id, .success(snapshot.json))
                }
            case .promptOpened(let prompt):
                logger.info("prompt opened", metadata: ["prompt": "\(prompt.id)", "app": "\(prompt.app)", "kind": "\(prompt.kind.rawValue)"])
                broadcastToWatchers(Event.prompt, prompt.json, app: prompt.app)
            case .promptClosed(let prompt, let outcome):
                var params = prompt.json.objectValue ?? [:]
                switch outcome {
                case .answered(let choice, let precise):
                    params["choice"] = .string(choice.rawValue)
                    params["precise"] = .bool(precise)
                case .cancelled:
                    params["choice"] = .null
                    params["cancelled"] = true
                }
                logger.info("prompt closed", metadata: ["prompt": "\(prompt.id)", "app": "\(prompt.app)", "choice": "\(params["choice"] ?? .null)"])
                broadcastToWatchers(Event.promptClosed, .object(params), app: prompt.app)
            case .persistPermission(let app, let entry):
                writes.append { try $0.savePermission(app: app, entry) }
            case .persistServicesEnabled(let enabled):
                writes.append { try $0.saveServicesEnabled(enabled) }
            case .persistPolicy(let policy):
                writes.append { try $0.savePolicy(policy) }
            case .servicesEnabledChanged(let enabled):
                logger.info("Location Services switched \(enabled ? "on" : "off")")
                for session in sessions.ordered {
                    publish(to: session, .servicesEnabled(enabled))
                }
            case .scheduleExpiryCheck(let at):
                let delay = max(0, at - clock.monotonicNanoseconds()) + 1_000_000
                eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(delay)) { [self] in
                    perform(authorization.expireAllowOnce(at: now))
                }
            }
        }
        return persist(writes)
    }

    func persist(_ writes: [@Sendable (SextantStore) throws -> Void]) -> EventLoopFuture<Void> {
        guard !writes.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        let store = self.store
        let logger = self.logger
        return storeThread.runIfActive(eventLoop: eventLoop) {
            for write in writes { try write(store) }
        }.flatMapErrorThrowing { error in
            logger.error("cannot write the permission store", metadata: ["path": "\(store.path)", "error": "\(error)"])
            throw RPCError.internalError("the permission store \(store.path) could not be written: \(error)")
        }
    }

    func authorizationError(for id: SessionID) -> RPCError {
        authorization.servicesEnabled ? AuthorizationRefusal.notAuthorized.rpcError : AuthorizationRefusal.servicesDisabled.rpcError
    }

    /// The grid shift of an app, made (and stored) on first use.
    func fudger(for app: String) -> LocationFudger {
        if let existing = fudgers[app] { return existing }
        var generator = SystemRandomNumberGenerator()
        let fresh = LocationFudger.random(using: &generator)
        fudgers[app] = fresh
        persist([{ try $0.saveFudger(app: app, fresh) }]).whenFailure { _ in }  // logged by persist
        return fresh
    }

    // MARK: - Publishing

    /// Sends an event to an app session, and a copy to the watchers.
    func publish(to session: AppSession, _ event: AppEvent) {
        session.output.deliver(event)
        broadcastToWatchers(event.method, event.params, app: session.app, session: session.id, kind: event.kind, delivered: true)
    }

    /// Sends an event to the watchers. `app` names the app an event concerns; `delivered`
    /// says whether it went to that app (a watcher of one app sees only those).
    func broadcastToWatchers(
        _ method: String, _ params: JSONValue, app: String? = nil, session: SessionID? = nil, kind: OutboundKind = .essential,
        delivered: Bool = false
    ) {
        guard !watchers.isEmpty else { return }
        var members = params.objectValue ?? [:]
        if let app { members["app"] = .string(app) }
        if let session { members["session"] = .int(Int64(session)) }
        let watched = JSONValue.object(members)
        for connection in watchers.values {
            guard let filter = connection.watch, filter.admits(method, deliveredTo: delivered ? app : nil) else { continue }
            connection.notify(method, watched, kind: kind == .location ? .sensor : kind)
        }
    }

    /// `watch`: the connection sees the events its filter admits from now on.
    func watch(_ filter: WatchFilter, on connection: Connection) {
        connection.watch = filter
        watchers[connection.id] = connection
    }
}
