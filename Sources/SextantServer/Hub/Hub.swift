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
    /// `--control-group`: its members may use the control socket too.
    public var controlGroup: UInt32?
    /// RULES L5's 60 s; shorter only for tests.
    public var allowOnceBackgroundLimit: Duration = .seconds(60)
    /// How long `location.once` waits for a fix before failing with 1006.
    public var locationOnceTimeout: Duration = .seconds(30)
    /// Default speed for GPX routes without times (m/s).
    public var gpxSpeed: Double = 1.4
    /// Seconds between fixes interpolated along GPX routes without times; nil for the points alone.
    public var gpxInterval: Double?
    public var version: String = sextantVersion
    /// Per turn of the loop: connections flushed (``FlushBatcher``), sessions a fix is decided for (``LocationFanOut``). Fewer only for tests.
    public var flushesPerTurn = 128
    public var locationsPerTurn = 256

    public init() {}
}

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
    /// Written through GRDB's one serialized writer, in the order asked (Hub+Store).
    let store: SextantStore
    /// For loading trace files without stalling the loop.
    let fileThread: NIOThreadPool

    /// Where the hub reads the time: monotonic from the event loop (so NIO's testing loops
    /// drive it), wall from the system unless a test gives its own.
    let clock: SextantClock
    /// Every change counts one `authorizationGeneration` (a simple `didSet`: still changed in place).
    var authorization: AuthorizationEngine { didSet { authorizationGeneration &+= 1 } }
    /// What a session's decided accuracy was decided under (`decidedAccuracy(of:)`).
    private(set) var authorizationGeneration: UInt64 = 1
    /// Each app's committed grid shift (RULES L10).
    var fudgers: [String: LocationFudger]
    /// Apps whose first grid shift is being written: their reduced fixes wait for it.
    var gridOffsetsBeingWritten: Set<String> = []
    /// App id → the uid it is bound to (docs/security.md).
    var owners: [String: UInt32]
    /// The last decision change being committed (Hub+Store): the next one waits for it.
    var decisionInFlight: EventLoopFuture<Void>?
    let startedAt: Int64

    /// Each socket's methods (`SocketMethods.swift`).
    private let appMethods = MethodTable.appSocket()
    private let controlMethods = MethodTable.controlSocket()

    var connections: [UInt64: Connection] = [:]
    /// Each turn's writes leave in one flush per connection, a bounded number per turn.
    lazy var flushes = FlushBatcher(eventLoop: eventLoop, connectionsPerTurn: configuration.flushesPerTurn)
    /// A replay at `max` takes its next turn after the loop's next poll (`LoopYield`).
    lazy var loopYield = LoopYield(eventLoop: eventLoop)
    var nextConnectionID: UInt64 = 0
    /// Control connections that called `watch`, kept apart so that publishing an event
    /// does not look at every connection.
    private var watchers: [UInt64: Connection] = [:]
    var sessions = SessionTable()
    /// `authorization.request`s waiting for a decision.
    var pendingRequests: [RequestToken: (connection: Connection, id: JSONValue)] = [:]
    /// Requests a face answers in its own protocol (GeoClue's `Start`): `makeToken(onAnswer:)`.
    var authorizationAnswers: [RequestToken: (Result<AuthorizationSnapshot, RPCError>) -> Void] = [:]
    private var nextToken: RequestToken = 0

    // Location.
    var lastFix: LocationFix?
    /// Why the GPS source is gone, from its loss until the next fix: each streaming app
    /// hears it once per loss, including one that starts streaming during the loss.
    var locationLoss: String?
    var sourceStates = SourceStates()
    /// Which source the latest fix came from (the gpsd face names it as the device).
    var lastFixSource: SourceName?
    /// The fix on its way to the sessions, across turns of the loop.
    var locationFanOut = LocationFanOut.State()
    /// The gpsd face's listeners and connections (`GPSDFace/`).
    var gpsdFace = GPSDFaceRegistry()
    /// The D-Bus connection as `status` shows it, nil without `--dbus`; what the D-Bus
    /// faces follow of the hub's decisions (`DBusFace/`).
    var dbusBus: DBusBusStatus?
    var dbusListeners = DBusFaceListeners()

    // Orientation and posture: the engines that decide them (RULES O1–O11, P1–P4).
    var judge = OrientationJudge()
    var rotationLock = false
    var postureEngine = PostureEngine()
    /// Which source each sensor kind's engine hears when several speak at once.
    var sensorArbiters = SensorArbiters()
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
        self.fileThread = NIOThreadPool(numberOfThreads: 1)
        fileThread.start()
        self.authorization = AuthorizationEngine(
            servicesEnabled: snapshot.servicesEnabled, permissions: snapshot.permissions, policy: snapshot.policy,
            allowOnceBackgroundLimit: TimeAmount(configuration.allowOnceBackgroundLimit).nanoseconds)
        self.fudgers = snapshot.fudgers
        self.owners = snapshot.owners
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
            loopYield.close()
        }.get()
        try? await fileThread.shutdownGracefully()
        store.close()
    }

    // MARK: - Clocks

    var now: EngineTime { EngineTime(monotonic: clock.monotonicNanoseconds(), wall: clock.wallTime()) }

    // MARK: - Connections

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
        if connection.heldFrames != nil {
            connection.heldFrames!.append(frame)
            return
        }
        switch frame {
        case .tooLong:
            logger.notice("line over 64 KiB: closing the connection", metadata: ["client": "\(connection.label)"])
            connection.sendAndClose(.errorResponse(id: .null, error: RPCError(.invalidRequest, "line longer than 65536 bytes")))
        case .line(let buffer):
            if let id = connection.session, let session = sessions[id] { settleOwedLocation(session) }  // the fix it is owed first
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

    /// Reads nothing more of `connection` until `answer` is written: a client may send its
    /// next requests right behind a `hello` whose answer waits for the store, and they must
    /// find the session open. Lines already read wait in order (no more than one read's
    /// worth: reading is paused), and are handled after the answer.
    func holdRequests(of connection: Connection, until answer: EventLoopFuture<JSONValue>) {
        connection.heldFrames = []
        _ = connection.channel.setOption(ChannelOptions.autoRead, value: false)
        answer.assumeIsolated().whenComplete { [self] _ in
            // Queued behind the answer, which the dispatcher writes on this same completion.
            eventLoop.assumeIsolated().execute { [self] in
                let held = connection.heldFrames ?? []
                connection.heldFrames = nil
                for frame in held { received(frame, on: connection) }
                guard !connection.isClosed, connection.heldFrames == nil else { return }
                _ = connection.channel.setOption(ChannelOptions.autoRead, value: true)
                connection.channel.read()
            }
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
        var changes: [StoreChange] = []
        for effect in effects {
            switch effect {
            case .authorizationChanged(let id, let snapshot):
                guard let session = sessions[id] else { continue }
                settleOwedLocation(session)  // decided under the new authorization
                if !authorization.mayReceiveLocations(id) {
                    // L9: not one more location after the change.
                    session.output.discardQueuedLocations()
                    session.failOnceWaiters(authorizationError(for: id))
                }
                publish(to: session, .authorization(snapshot))
            case .reply(let token, let snapshot):
                if let pending = pendingRequests.removeValue(forKey: token) {
                    pending.connection.respond(pending.id, .success(snapshot.json))
                } else {
                    authorizationAnswers.removeValue(forKey: token)?(.success(snapshot))
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
            case .persistPermission, .persistServicesEnabled, .persistPolicy:
                changes += Self.storeChange(effect).map { [$0] } ?? []
            case .servicesEnabledChanged(let enabled):
                logger.info("Location Services switched \(enabled ? "on" : "off")")
                let event = SharedEvent(.servicesEnabled(enabled))
                for session in sessions.ordered {
                    publish(to: session, event)
                }
                dbusListeners.servicesEnabledChanged(enabled)
            case .scheduleExpiryCheck(let at):
                let delay = max(0, at - clock.monotonicNanoseconds()) + 1_000_000
                eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(delay)) { [self] in
                    perform(authorization.expireAllowOnce(at: now))
                }
            }
        }
        return write(changes)
    }

    func authorizationError(for id: SessionID) -> RPCError {
        authorization.servicesEnabled ? AuthorizationRefusal.notAuthorized.rpcError : AuthorizationRefusal.servicesDisabled.rpcError
    }

    // MARK: - Publishing

    /// Sends an event to an app session, and a copy to the watchers.
    func publish(to session: AppSession, _ event: AppEvent) {
        settleOwedLocation(session)
        session.output.deliver(event)
        broadcastToWatchers(event.method, event.params, app: session.app, session: session.id, kind: event.kind, delivered: true)
    }

    /// The same for an event that goes to many sessions, encoded once for all of them.
    func publish(to session: AppSession, _ shared: SharedEvent) {
        settleOwedLocation(session)
        session.output.deliver(shared)
        if !watchers.isEmpty {
            broadcastToWatchers(
                shared.event.method, shared.event.params, app: session.app, session: session.id, kind: shared.event.kind, delivered: true)
        }
    }

    /// Sends an event to the watchers. `app` names the app an event concerns; `delivered`
    /// says whether it went to that app (a watcher of one app sees only those). `params`
    /// is built only when someone watches: every fix of a replay passes here.
    func broadcastToWatchers(
        _ method: String, _ params: @autoclosure () -> JSONValue, app: String? = nil, session: SessionID? = nil,
        kind: OutboundKind = .essential, delivered: Bool = false
    ) {
        guard !watchers.isEmpty else { return }
        var members = params().objectValue ?? [:]
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
