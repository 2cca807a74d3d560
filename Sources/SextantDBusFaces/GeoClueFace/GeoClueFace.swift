import Logging
import NIOCore
import SextantDBus
import SextantHub
import SextantProtocol
import Synchronization

/// Sextant as GeoClue 2.6 (`org.freedesktop.GeoClue2`, docs/dbus.md, GeoClue): the manager
/// at `/org/freedesktop/GeoClue2/Manager`, one client object per `GetClient`/`CreateClient`,
/// and a `Location` object per location signalled to a client.
///
/// D-Bus calls arrive on the bus's thread and hop onto the hub's loop, where every client
/// lives (`clients`); answers and signals go back through the connection, which is thread
/// safe. Authorization is Sextant's: a client's `DesktopId` is its app id and its `Start`
/// is that app's authorization request (`GeoClueFace+Start.swift`).
final class GeoClueFace: DBusFace {
    let handle: HubHandle
    /// Only on the hub's loop.
    var hub: Hub { handle.hub }
    let logger: Logger
    /// The connection the face's objects are on, nil between connections.
    private let current = Mutex<DBusConnection?>(nil)
    /// The manager object, exported on every connection; made once the face exists (its
    /// methods call the face), and never replaced.
    private let madeManager = Mutex<DBusObject?>(nil)
    private let confinedClients: NIOLoopBoundBox<GeoClueClientTable<GeoClueClient>>

    /// On the hub's loop only (checked at every access).
    var clients: GeoClueClientTable<GeoClueClient> {
        get { confinedClients.value }
        _modify { yield &confinedClients.value }
    }

    var busNames: [String] { [GeoClueObjectPath.service] }

    init(hub: HubHandle, logger: Logger) {
        self.handle = hub
        self.logger = logger
        confinedClients = .makeBoxSendingValue(GeoClueClientTable(), eventLoop: handle.eventLoop)
        let manager = DBusObject(path: GeoClueObjectPath.manager, interfaces: [GeoClueInterfaces.manager(self)])
        madeManager.withLock { $0 = manager }
        manager.set(GeoClueInterfaces.managerName, "InUse", .bool(false))
        manager.set(GeoClueInterfaces.managerName, "AvailableAccuracyLevel", .uint32(GeoClueAccuracyLevel.exact.rawValue))
        hub.execute { [self] hub in
            hub.register(self)
            servicesSwitched(hub.locationServicesEnabled)
        }
    }

    var connection: DBusConnection? { current.withLock { $0 } }
    var manager: DBusObject { madeManager.withLock { $0! } }

    func connected(_ connection: DBusConnection) {
        current.withLock { $0 = connection }
        connection.export(manager)
    }

    func peerLeft(_ uniqueName: String) {
        handle.eventLoop.execute { [self] in
            for entry in clients.senderLeft(uniqueName) { free(entry.client, why: "its owner left the bus") }
            syncInUse()
        }
    }

    func disconnected() {
        current.withLock { $0 = nil }
        handle.eventLoop.execute { [self] in
            // Each peer must ask again on the next connection: no client outlives this one.
            for entry in clients.all {
                _ = clients.delete(entry.number, sender: entry.owner)
                free(entry.client, why: "the bus connection ended")
            }
            syncInUse()
        }
    }

    // MARK: - Manager

    /// `GetClient` (reuse) and `CreateClient`: the sender's credentials first (its uid binds
    /// the app id at `Start`), then the client on the loop.
    func getClient(_ call: any DBusCall, reuse: Bool) {
        guard let connection else { return call.fail(.failed("not on the bus")) }
        let sender = call.sender
        connection.credentials(of: sender) { [self] result in
            switch result {
            case .failure(let error):
                call.fail(error)
            case .success(let credentials):
                handle.eventLoop.execute { [self] in
                    do throws(GeoClueClientTable<GeoClueClient>.Refusal) {
                        let number = try makeClient(for: sender, credentials: credentials, reuse: reuse)
                        call.reply([.objectPath(GeoClueObjectPath.client(number))])
                    } catch {
                        call.fail(Self.limitError(error, sender: sender, uid: credentials.uid))
                    }
                }
            }
        }
    }

    private func makeClient(for sender: String, credentials: DBusPeerCredentials, reuse: Bool) throws(GeoClueClientTable<GeoClueClient>.Refusal) -> UInt32 {
        let make = { [self] (number: UInt32) in GeoClueClient(number: number, owner: sender, credentials: credentials, face: self) }
        let number: UInt32
        if reuse {
            let got = try clients.getClient(sender: sender, uid: credentials.uid, make: make)
            guard got.created else { return got.number }
            number = got.number
        } else {
            number = try clients.createClient(sender: sender, uid: credentials.uid, make: make)
        }
        if let client = clients[number]?.client { connection?.export(client.object) }
        logger.info("GeoClue client created", metadata: ["client": "\(number)", "sender": "\(sender)", "uid": "\(credentials.uid)"])
        return number
    }

    private static func limitError(_ refusal: GeoClueClientTable<GeoClueClient>.Refusal, sender: String, uid: UInt32) -> DBusError {
        let limits = "org.freedesktop.DBus.Error.LimitsExceeded"
        switch refusal {
        case .senderLimit:
            return DBusError(limits, "\(sender) holds \(GeoClueClientTable<GeoClueClient>.perSenderLimit) clients already: delete one first")
        case .uidLimit:
            let share = GeoClueClientTable<GeoClueClient>.perUidLimit
            return DBusError(limits, "uid \(uid) holds \(share) GeoClue clients already (each user's share): delete one first")
        case .totalLimit: return DBusError(limits, "the service holds \(GeoClueClientTable<GeoClueClient>.totalLimit) clients already")
        case .numbersExhausted: return DBusError(limits, "every client number has been used")
        }
    }

    /// `DeleteClient`: the sender's own client goes; any other path is ignored, as GeoClue does.
    func deleteClient(_ call: any DBusCall) {
        let path = call.arguments.first?.stringValue ?? ""
        handle.eventLoop.execute { [self] in
            if let number = GeoClueObjectPath.clientNumber(path), let entry = clients.delete(number, sender: call.sender) {
                free(entry.client, why: "DeleteClient")
                syncInUse()
            }
            call.reply([])
        }
    }

    /// Sextant's prompts are answered with `sextantctl prompts answer` (or the prompt
    /// policy): no agent is asked, so none may register, as GeoClue refuses an agent its
    /// configuration does not list.
    func addAgent(_ call: any DBusCall) {
        let id = call.arguments.first?.stringValue ?? ""
        call.fail(.accessDenied("\(id) not allowed to act as agent: Sextant's prompts are answered with sextantctl prompts answer"))
    }

    // MARK: - Clients

    /// A client is gone: its session ends (a waiting `Start` is answered), its objects go.
    func free(_ client: GeoClueClient, why: String) {
        client.release()
        if let session = client.session { hub.endSession(session) }
        client.session = nil
        logger.info("GeoClue client freed", metadata: ["client": "\(client.number)", "reason": "\(why)"])
    }

    /// `InUse`: whether any client is active.
    func syncInUse() {
        manager.set(GeoClueInterfaces.managerName, "InUse", .bool(clients.all.contains { $0.client.isActive }))
    }

    /// Location Services switched: `AvailableAccuracyLevel` follows (NONE while off).
    func servicesSwitched(_ enabled: Bool) {
        let level = GeoClueAccuracyLevel.available(servicesEnabled: enabled)
        manager.set(GeoClueInterfaces.managerName, "AvailableAccuracyLevel", .uint32(level.rawValue))
    }

    /// Runs `body` on the loop with the sender's own client, or fails the call as GeoClue
    /// does for another sender's client.
    func withOwnClient(_ call: any DBusCall, _ body: @escaping @Sendable (GeoClueClient) -> Void) {
        handle.eventLoop.execute { [self] in
            guard let number = GeoClueObjectPath.clientNumber(call.path), let entry = clients[number] else {
                return call.fail(.unknownObject("no client at \(call.path)"))
            }
            guard entry.owner == call.sender else { return call.fail(.accessDenied("Access denied")) }
            body(entry.client)
        }
    }
}
