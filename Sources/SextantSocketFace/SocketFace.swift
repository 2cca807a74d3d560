import NIOCore
import SextantHub
import SextantProtocol

/// app.sock and control.sock as a face: their connections, admitted by their credentials
/// before anything they send is read (control: the daemon's uid, root, or `--control-group`).
package final class SocketFace: Face {
    unowned let hub: Hub
    private var connections: [UInt64: Connection] = [:]
    private var nextID: UInt64 = 0

    package init(hub: Hub) { self.hub = hub }

    func connectionOpened(channel: Channel, socket: SocketKind, credentials: Result<PeerCredentials, any Error>) -> Connection {
        hub.eventLoop.preconditionInEventLoop()
        nextID += 1
        let connection = Connection(id: nextID, socket: socket, channel: channel, clock: hub.clock, flushes: hub.flushes, logger: hub.logger)
        connections[connection.id] = connection
        // Through the face, not a weak reference to the hub: one would give the hub a side
        // table for its reference counts, and every retain of it (each service asks it on
        // every fix whether anyone listens) would take the runtime's slow path.
        connection.writer.onDrain = { [weak self] in self?.hub.clientDrained() }
        admit(connection, socket: socket, credentials: credentials)
        hub.logger.debug("client connected", metadata: ["client": "\(connection.label)"])
        return connection
    }

    /// Reading starts only once the peer is known to be allowed.
    private func admit(_ connection: Connection, socket: SocketKind, credentials: Result<PeerCredentials, any Error>) {
        switch credentials {
            case .success(let credentials):
            connection.credentials = credentials
            let admission = hub.controlAdmission
            if socket == .control, !admission.admits(credentials) {
                hub.logger.warning("control socket: refused a client of another user", metadata: ["uid": "\(credentials.uid)", "pid": "\(credentials.pid)"])
                connection.sendAndClose(.errorResponse(id: .null, error: RPCError(.forbidden, admission.refusal)))
                return
            }
        case .failure(let error):
            hub.logger.error("cannot read the peer's credentials: closing", metadata: ["error": "\(error)"])
            connection.close()
            return
        }
        connection.setReading(true)
    }

    func connectionClosed(_ connection: Connection) {
        connections[connection.id] = nil
        hub.peerLeft(connection)
    }

    package func holdsBackReplay(now: Int64) -> Bool { connections.values.contains { $0.writer.holdsBackReplay(now: now) } }

    package func close() {
        for connection in connections.values { connection.close() }
    }
}
