import Glibc
import NIOCore
import SextantCore
import SextantHub
import SextantProtocol
import SextantSocket

/// The gpsd face's connections and sessions, its listeners (for `status`) and when each
/// source was first shown to a gpsd client as a device. Each client is an app session that
/// is always in the foreground (it has no screen to leave); its `?WATCH` with `enable` is
/// its authorization request, at level `always` (RULES "gpsd clients"). Its connections
/// count in a max-speed replay's pacing as app.sock's do.
/// What a lookup found: the peer, or that its socket is not on this machine (or gone).
enum GPSDPeerLookupResult {
    case found(GPSDPeer)
    case remote
}

final class GPSDFace: Face {
    unowned let hub: Hub
    /// The addresses the face listens on, as bound ("127.0.0.1:2947", "[::1]:2947").
    private(set) var listeners: [String] = []
    private var connections: [UInt64: GPSDConnection] = [:]
    private var nextID: UInt64 = 0
    /// When the device was first listed: gpsd's `activated`.
    private var activated: Timestamp?
    /// Asks the kernel for a peer's socket; nil where netlink is refused (then /proc is read).
    private let socketDiag = SocketDiag()
    private let lookups = GPSDPeerLookups()
    /// How long a client that does not watch may stay without a request.
    let idleTimeout: TimeAmount
    /// The model's field at the latest fix sent, for TPV's `magvar` and `magtrack`.
    private var magneticModel = MagneticModelCache()

    init(hub: Hub, idleTimeout: TimeAmount = GPSDListener.idleTimeout) {
        self.hub = hub
        self.idleTimeout = idleTimeout
    }

    var statusMembers: [String: JSONValue] { ["gpsdListeners": .array(listeners.map { .string($0) })] }

    func holdsBackReplay(now: Int64) -> Bool { connections.values.contains { $0.writer.holdsBackReplay(now: now) } }

    func close() {
        for connection in connections.values {
            lookups.cancel(connection.id)
            connection.close()
        }
    }

    /// A listener is bound at `address`.
    func listening(on address: String) { listeners.append(address) }

    func connectionOpened(channel: Channel) -> GPSDConnection {
        hub.eventLoop.preconditionInEventLoop()
        nextID += 1
        let connection = GPSDConnection(id: nextID, channel: channel, face: self)
        connections[connection.id] = connection
        // Whatever ends the channel ends the session and the lookup, even a reset that
        // fails the banner's write before the handler holds the connection (issue 28.6).
        channel.closeFuture.assumeIsolated().whenComplete { [self] _ in connectionClosed(connection) }
        connection.send(GPSDReport.version(), kind: .essential)
        identifyGPSDPeer(connection)
        closeWhenIdle(connection, after: idleTimeout)
        return connection
    }

    /// Finds the peer, then opens its session and starts reading its requests. Its socket
    /// (uid, inode) is asked of the kernel here, on the loop, in one netlink round trip;
    /// its process is searched for in /proc on the lookup queue, and only where this
    /// process may read that uid's descriptors (``GPSDPeer/mayLookAtProcesses(of:)``).
    private func identifyGPSDPeer(_ connection: GPSDConnection) {
        let channel = connection.channel
        guard let peer = channel.remoteAddress.flatMap({ a in a.ipAddress.map { ($0, a.port ?? 0) } }),
            let local = channel.localAddress.flatMap({ a in a.ipAddress.map { ($0, a.port ?? 0) } })
        else {
            identified(connection.id, nil)  // not a TCP peer (in-process tests)
            return
        }
        var query = GPSDPeer.Query(peer: peer, local: local)
        if let socketDiag {
            guard let socket = socketDiag.tcpSocket(source: peer, destination: local) else {
                identified(connection.id, .remote)
                return
            }
            query.socket = socket
            connection.identity = GPSDPeer(uid: socket.uid)
            // Over its uid's share: refused now, before any search of /proc.
            guard admittedInShare(connection) else { return }
            guard GPSDPeer.mayLookAtProcesses(of: socket.uid) else {
                identified(connection.id, .found(GPSDPeer(uid: socket.uid)))
                return
            }
        }
        let face = NIOLoopBound(self, eventLoop: hub.eventLoop)
        let (loop, id) = (hub.eventLoop, connection.id)
        lookups.lookUp(id, query) { peer in
            loop.execute { face.value.identified(id, peer.map { .found($0) } ?? .remote) }
        }
    }

    /// The lookup's answer for connection `id`, if it is still open: the per-uid share is
    /// checked, then the session opens and its requests are read.
    private func identified(_ id: UInt64, _ result: GPSDPeerLookupResult?) {
        guard let connection = connections[id], !connection.isClosed else { return }
        switch result {
        case .found(let peer): connection.identity = peer
        case .remote:
            connection.identity = nil
            connection.isRemote = true
        case nil: connection.identity = nil
        }
        guard admittedInShare(connection) else { return }
        let channel = connection.channel
        openGPSDSession(connection).assumeIsolated().whenSuccess {
            guard !connection.isClosed else { return }
            channel.read()
            _ = channel.setOption(ChannelOptions.autoRead, value: true)
        }
    }

    /// Which share of the slots a client counts in (``GPSDSlotShare``): its uid's, or for a
    /// peer not on this machine its address's; none for root and the daemon's own uid,
    /// which may take every slot.
    private func share(of connection: GPSDConnection) -> GPSDSlotShare? {
        if connection.isRemote { return .remoteAddress(connection.channel.remoteAddress?.ipAddress ?? "?") }
        guard let uid = connection.identity?.uid, uid != 0, uid != geteuid() else { return nil }
        return .uid(uid)
    }

    /// Refuses a client beyond its share's slots (``GPSDSlotShare/limit``), so that one
    /// user, or one remote address, cannot hold every slot; whether it was let in.
    private func admittedInShare(_ connection: GPSDConnection) -> Bool {
        guard let key = share(of: connection) else { return true }
        let others = connections.values.count { $0 !== connection && !$0.isClosed && share(of: $0) == key }
        guard others >= key.limit else { return true }
        hub.logger.notice("gpsd client refused: its share of the slots is taken", metadata: ["client": "\(connection.label)", "share": "\(key)", "limit": "\(key.limit)"])
        connection.refuse("Sextant serves at most \(key.limit) gpsd clients of \(key.whose) at once, and \(key) has that many")
        return false
    }

    /// Closes a client that has sent no request for `timeout` and does not watch: it holds
    /// a slot and serves no one. A watcher is kept however long it is quiet, as gpsd keeps it.
    private func closeWhenIdle(_ connection: GPSDConnection, after delay: TimeAmount) {
        // Cancelled when the connection closes: a timer a minute long per connection that
        // came and went would pile up under churn. Held strongly until then: a weak
        // reference would move the face's and the connection's counts to a side table, and
        // each delivery's retain of them would take the runtime's slow path.
        connection.idleTimer = hub.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            guard !connection.isClosed else { return }
            let quiet = hub.clock.monotonicNanoseconds() - connection.lastRequest
            guard !connection.watch.enable, quiet >= idleTimeout.nanoseconds else {
                closeWhenIdle(connection, after: connection.watch.enable ? idleTimeout : idleTimeout - .nanoseconds(quiet))
                return
            }
            hub.logger.notice("gpsd client idle: closing", metadata: ["client": "\(connection.label)", "seconds": "\(idleTimeout.nanoseconds / 1_000_000_000)"])
            connection.refuse("no request for \(idleTimeout.nanoseconds / 1_000_000_000) s and no WATCH: closing")
        }
    }

    /// Opens the client's session. Its app id is bound to its uid as app.sock's `hello`
    /// binds one (docs/security.md): a client of another uid than the id's owner gets gpsd's
    /// ERROR and is closed, so that one user's grant never serves another user's program.
    /// A client whose uid /proc does not tell is `gpsd.unknown`, which binds no one.
    private func openGPSDSession(_ connection: GPSDConnection) -> EventLoopFuture<Void> {
        let app = GPSDPeer.appID(command: connection.identity?.command, uid: connection.identity?.uid)
        // The profile's own orientations are never an empty set: this cannot fail.
        guard let interface = hub.foregroundInterface() else {
            hub.logger.error("cannot open a gpsd client's session", metadata: ["client": "\(connection.label)"])
            connection.close()
            return hub.eventLoop.makeFailedFuture(RPCError.internalError("no session"))
        }
        let open = { [hub] () throws(RPCError) in
            guard !connection.isClosed else { throw RPCError.internalError("closed") }
            connection.session = hub.openForegroundSession(app: app, interface: interface, output: connection)
        }
        let opened: EventLoopFuture<Void>
        do throws(RPCError) {
            if let uid = connection.identity?.uid, app != GPSDPeer.unknownApp {
                opened = try hub.claimAppID(app, uid: uid, thenOpen: open) ?? hub.eventLoop.makeSucceededFuture(())
            } else {
                try open()
                opened = hub.eventLoop.makeSucceededFuture(())
            }
        } catch {
            opened = hub.eventLoop.makeFailedFuture(error)
        }
        return opened.assumeIsolated().flatMapErrorThrowing { [hub] error in
            let message = (error as? RPCError)?.message ?? "\(error)"
            hub.logger.notice("gpsd client refused", metadata: ["client": "\(connection.label)", "reason": "\(message)"])
            connection.refuse(message)
            throw error
        }.nonisolated()
    }

    /// Ends a connection's session and lookup; once, whoever calls first (the channel's
    /// close, the handler).
    func connectionClosed(_ connection: GPSDConnection) {
        hub.eventLoop.preconditionInEventLoop()
        guard connections[connection.id] === connection else { return }
        lookups.cancel(connection.id)
        connection.idleTimer?.cancel()
        connection.idleTimer = nil
        connection.close()
        connections[connection.id] = nil
        motionHearingChanged()
        if let session = connection.session { hub.endSession(session) }
        connection.session = nil
        hub.clientDrained()
    }

    /// `?WATCH` with `enable`: the client streams every fix the rules let it have (gpsd
    /// has no distance filter), and asks for authorization at level `always`. Asking again
    /// changes nothing once decided (L4); the decision reaches the client as an
    /// `authorization` event.
    func startWatch(_ session: AppSession) {
        hub.startLocationStream(session)
        // Every heading, as gpsd passes on every ATT its compass reports.
        hub.startHeadings(session, filter: 0)
        // The sky, as gpsd sends each SKY its receiver reports (RULES G6).
        hub.subscribe(session, to: .satellites)
        hub.streamsChanged(session)
        hub.clientWantsLocations()
        guard !hub.isWaitingListFull(session) else { return }
        // As on app.sock (Hub+Store): a decision the policy makes at once applies once stored.
        hub.requestAuthorization(session, level: .always)
    }

    func stopWatch(_ session: AppSession) {
        hub.stopLocationStream(session)
        hub.stopHeadings(session)
        hub.unsubscribe(session, from: .satellites)
        hub.streamsChanged(session)
    }

    /// The fusion runs for the face only while a client watches in JSON (RULES D6): a
    /// connected client that does not, or watches in NMEA only, costs it nothing.
    func motionHearingChanged() {
        hub.setDeviceMotionHeardByFace(connections.values.contains { $0.hearsMotion })
    }

    func observe(_ change: any DeviceChange) {
        guard let motion = change as? DeviceMotionDecided else { return }
        for connection in connections.values { connection.receive(motion) }
    }

    /// The model's declination at `fix` on its date, degrees east of true north.
    func declination(at fix: LocationFix) -> Double {
        magneticModel.elements(latitude: fix.latitude, longitude: fix.longitude, height: fix.altitude ?? 0, at: fix.time).declination
    }

    /// The device gpsd clients see: one, as a phone has one GNSS receiver and as gpsd
    /// clients expect (gpsprof refuses several), whichever source gives the fixes; that
    /// source is its `subtype`.
    func devices() -> [GPSDDevice] {
        if activated == nil { activated = hub.clock.wallTime() }
        return [GPSDDevice(path: GPSDDevice.path, activated: activated!, source: hub.fixSource)]
    }

    /// The device fixes come from.
    func currentDevice() -> String { GPSDDevice.path }
}

/// The part of the gpsd face's slots a client counts in. A local client's uid holds at most
/// ``GPSDListener/maxClientsPerUser``; a client from another machine cannot be told apart
/// by uid (and every one is the same app), so each remote address holds at most
/// ``GPSDListener/maxClientsPerRemoteAddress``: one farm client that leaks watchers (which
/// are kept however long they are quiet) fills its own share, not every remote client's.
enum GPSDSlotShare: Hashable, CustomStringConvertible {
    case uid(uid_t)
    case remoteAddress(String)

    var limit: Int {
        switch self {
        case .uid: GPSDListener.maxClientsPerUser
        case .remoteAddress: GPSDListener.maxClientsPerRemoteAddress
        }
    }

    var whose: String {
        switch self {
        case .uid: "one user"
        case .remoteAddress: "one remote address"
        }
    }

    var description: String {
        switch self {
        case .uid(let uid): "uid \(uid)"
        case .remoteAddress(let address): "address \(address)"
        }
    }
}
