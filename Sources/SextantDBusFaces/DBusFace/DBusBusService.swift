import Dispatch
import Logging
import SextantDBus
import ServiceLifecycle
import SextantHub
import Synchronization

/// The daemon on D-Bus (`--dbus`): one connection at a time, the faces' objects exported
/// and their names claimed on it. A bus that cannot be reached, a name another program
/// owns, or a connection lost is a fault like gpsd's: logged once, retried with back-off
/// (0.5 s doubling to 10 s), shown in `status`; the daemon keeps serving its sockets.
package final class DBusBusService: Service {
    private let address: DBusBusAddress
    private let faces: [any DBusFace]
    private let handle: HubHandle
    private let logger: Logger
    /// Connects, drops and retries run on this queue, one at a time.
    private let queue = DispatchQueue(label: "sextant.dbus")
    /// What they keep from one run to the next (only they take the lock: never contended).
    private let link = Mutex(Link())

    private struct Link {
        var connection: DBusConnection?
        var nextDelay = DBusBusService.initialDelay
        /// Whether the current fault was logged (once per outage).
        var faultLogged = false
        var stopped = false
    }

    static let initialDelay: Duration = .milliseconds(500)
    static let maximumDelay: Duration = .seconds(10)

    private init(address: DBusBusAddress, faces: [any DBusFace], hub: HubHandle, logger: Logger) {
        self.address = address
        self.faces = faces
        self.handle = hub
        self.logger = logger
    }

    /// The service for `--dbus`, nil without it (then `status` says `dbus: null`).
    package static func open(_ address: DBusBusAddress?, hub: HubHandle, logger: Logger) -> DBusBusService? {
        guard let address else { return nil }
        let faces = DBusFaces.all.map { $0.init(hub: hub, logger: logger) as any DBusFace }
        return DBusBusService(address: address, faces: faces, hub: hub, logger: logger)
    }

    package func run() async throws {
        queue.async { self.connect() }
        try? await gracefulShutdown()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                // A retry still scheduled finds the service stopped and does nothing.
                self.link.withLock { $0.stopped = true }
                self.drop()
                done.resume()
            }
        }
    }

    private var names: [String] { faces.flatMap(\.busNames) }

    private func connect() {
        guard !link.withLock({ $0.stopped }) else { return }
        report(.connecting)
        let attempt: DBusConnection
        do {
            attempt = try DBusConnection.connect(address)
        } catch {
            return fault(error.message)
        }
        for face in faces { face.connected(attempt) }
        do {
            for name in names { try attempt.requestName(name) }
        } catch {
            attempt.start(onPeerLeft: { _ in }, onLost: { _ in })
            attempt.stop()
            for face in faces { face.disconnected() }
            return fault(error.message)
        }
        let faces = self.faces
        attempt.start(
            onPeerLeft: { name in for face in faces { face.peerLeft(name) } },
            onLost: { [self] error in queue.async { self.lost(attempt, error) } })
        link.withLock { link in
            link.connection = attempt
            link.nextDelay = Self.initialDelay
            link.faultLogged = false
        }
        logger.info("D-Bus: on the \(address) bus", metadata: ["unique name": "\(attempt.uniqueName)", "names": "\(names.joined(separator: " "))"])
        report(.connected(uniqueName: attempt.uniqueName, names: names))
    }

    private func lost(_ lostConnection: DBusConnection, _ error: DBusError) {
        guard link.withLock({ $0.connection === lostConnection }) else { return }
        drop()
        fault("lost the \(address) bus: \(error.message)")
    }

    /// Closes the connection, if any, and tells the faces.
    private func drop() {
        let dropped = link.withLock { link in
            defer { link.connection = nil }
            return link.connection
        }
        guard let current = dropped else { return }
        current.stop()
        for face in faces { face.disconnected() }
    }

    private func fault(_ reason: String) {
        let (logged, delay) = link.withLock { link in
            defer {
                link.faultLogged = true
                link.nextDelay = min(link.nextDelay * 2, Self.maximumDelay)
            }
            return (link.faultLogged, link.nextDelay)
        }
        if logged {
            logger.debug("D-Bus: still failing", metadata: ["reason": "\(reason)"])
        } else {
            logger.warning("D-Bus: \(reason); retrying with back-off (at most every 10 s)")
        }
        report(.retrying(reason))
        let (seconds, attoseconds) = delay.components
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))) { [weak self] in
            self?.connect()
        }
    }

    private func report(_ state: DBusBusState) {
        let address = self.address
        handle.execute { hub in hub.face(DBusStatusFace.self)?.busChanged(DBusBusStatus(bus: address, state: state)) }
    }
}

/// What `status` says of the daemon's D-Bus connection (`dbus`).
struct DBusBusStatus: Sendable {
    var bus: DBusBusAddress
    var state: DBusBusState
}

enum DBusBusState: Sendable {
    case connecting
    case connected(uniqueName: String, names: [String])
    /// The last attempt failed or the connection was lost; the next attempt is scheduled.
    case retrying(String)
}
