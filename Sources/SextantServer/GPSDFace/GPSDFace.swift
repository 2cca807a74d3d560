import NIOCore
import SextantCore
import SextantProtocol

/// The gpsd face's connections and sessions, its listeners (for `status`) and when each
/// source was first shown to a gpsd client as a device. Each client is an app session that
/// is always in the foreground (it has no screen to leave); its `?WATCH` with `enable` is
/// its authorization request, at level `always` (RULES "gpsd clients"). Its connections
/// count in a max-speed replay's pacing as app.sock's do.
final class GPSDFace: Face {
    unowned let hub: Hub
    /// The addresses the face listens on, as bound ("127.0.0.1:2947", "[::1]:2947").
    private(set) var listeners: [String] = []
    private var connections: [UInt64: GPSDConnection] = [:]
    private var nextID: UInt64 = 0
    private var activated: [SourceName: Timestamp] = [:]

    init(hub: Hub) { self.hub = hub }

    var statusMembers: [String: JSONValue] { ["gpsdListeners": .array(listeners.map { .string($0) })] }

    func holdsBackReplay(now: Int64) -> Bool { connections.values.contains { $0.writer.holdsBackReplay(now: now) } }

    func close() {
        for connection in connections.values { connection.close() }
    }

    /// A listener is bound at `address`.
    func listening(on address: String) { listeners.append(address) }

    func connectionOpened(channel: Channel) -> GPSDConnection {
        hub.eventLoop.preconditionInEventLoop()
        nextID += 1
        let connection = GPSDConnection(id: nextID, channel: channel, face: self)
        connections[connection.id] = connection
        connection.send(GPSDReport.version(), kind: .essential)
        identifyGPSDPeer(connection)
        return connection
    }

    /// Finds the peer through /proc off the loop (a scan of every process's descriptors),
    /// then opens its session and starts reading its requests.
    private func identifyGPSDPeer(_ connection: GPSDConnection) {
        let channel = connection.channel
        let peer = channel.remoteAddress.flatMap { address in address.ipAddress.map { ($0, address.port ?? 0) } }
        let local = channel.localAddress.flatMap { address in address.ipAddress.map { ($0, address.port ?? 0) } }
        let lookup: EventLoopFuture<GPSDPeer?>
        if let peer, let local {
            lookup = hub.fileThread.runIfActive(eventLoop: hub.eventLoop) { GPSDPeer.identify(peer: peer, local: local) }
        } else {
            lookup = hub.eventLoop.makeSucceededFuture(nil)
        }
        lookup.assumeIsolated().whenComplete { [self] result in
            guard !connection.isClosed else { return }
            let identity = (try? result.get()) ?? nil
            connection.identity = identity
            openGPSDSession(connection).assumeIsolated().whenSuccess {
                guard !connection.isClosed else { return }
                channel.read()
                _ = channel.setOption(ChannelOptions.autoRead, value: true)
            }
        }
    }

    /// Opens the client's session. Its app id is bound to its uid as app.sock's `hello`
    /// binds one (docs/security.md): a client of another uid than the id's owner gets gpsd's
    /// ERROR and is closed, so that one user's grant never serves another user's program.
    /// A client whose uid /proc does not tell is `gpsd.unknown`, which binds no one.
    private func openGPSDSession(_ connection: GPSDConnection) -> EventLoopFuture<Void> {
        let app = GPSDPeer.appID(command: connection.identity?.command)
        // The profile's own orientations are never an empty set: this cannot fail.
        guard let interface = try? AppInterfaceOrientation(declared: nil, state: .foreground, conditions: hub.interfaceConditions) else {
            hub.logger.error("cannot open a gpsd client's session", metadata: ["client": "\(connection.label)"])
            connection.close()
            return hub.eventLoop.makeFailedFuture(RPCError.internalError("no session"))
        }
        let open = { [hub] () throws(RPCError) -> JSONValue in
            guard !connection.isClosed else { throw RPCError.internalError("closed") }
            connection.session = hub.openSession(app: app, state: .foreground, interface: interface, output: connection)
            return .null
        }
        let opened: EventLoopFuture<JSONValue>
        do throws(RPCError) {
            if let uid = connection.identity?.uid, app != GPSDPeer.unknownApp {
                switch try hub.claimAppID(app, uid: uid, then: open) {
                case .later(let future): opened = future
                default: opened = hub.eventLoop.makeSucceededFuture(.null)
                }
            } else {
                opened = hub.eventLoop.makeSucceededFuture(try open())
            }
        } catch {
            opened = hub.eventLoop.makeFailedFuture(error)
        }
        return opened.assumeIsolated().map { _ in () }.flatMapErrorThrowing { [hub] error in
            let message = (error as? RPCError)?.message ?? "\(error)"
            hub.logger.notice("gpsd client refused", metadata: ["client": "\(connection.label)", "reason": "\(message)"])
            connection.refuse(message)
            throw error
        }.nonisolated()
    }

    func connectionClosed(_ connection: GPSDConnection) {
        hub.eventLoop.preconditionInEventLoop()
        connection.close()
        connections[connection.id] = nil
        if let session = connection.session { hub.closeSession(session.id) }
        connection.session = nil
        hub.replay.clientDrained()
    }

    /// `?WATCH` with `enable`: the client streams every fix the rules let it have (gpsd
    /// has no distance filter), and asks for authorization at level `always`. Asking again
    /// changes nothing once decided (L4); the decision reaches the client as an
    /// `authorization` event.
    func startWatch(_ session: AppSession) {
        session.stream = LocationStream()
        guard !hub.authorization.isWaitingListFull(session.id) else { return }
        // As on app.sock (Hub+Store): a decision the policy makes at once applies once stored.
        _ = hub.requestAuthorization(session.id, level: .always, token: hub.makeToken())
    }

    func stopWatch(_ session: AppSession) {
        session.stream = nil
    }

    /// The sources gpsd clients see as devices: those that give locations and are there.
    func devices() -> [GPSDDevice] {
        var devices: [GPSDDevice] = []
        for source in [SourceName.gpsd, .replay, .manual] {
            guard let state = hub.sourceStates[source], state != .off, state != .idle || source == hub.location.lastFixSource else { continue }
            if activated[source] == nil { activated[source] = hub.clock.wallTime() }
            devices.append(GPSDDevice(path: GPSDDevice.path(of: source), activated: activated[source]!))
        }
        return devices
    }

    /// The device the latest fix came from; before any, the first one listed.
    func currentDevice() -> String {
        if let lastFixSource = hub.location.lastFixSource { return GPSDDevice.path(of: lastFixSource) }
        return devices().first?.path ?? GPSDDevice.path(of: .manual)
    }
}
