import NIOCore
import SextantProtocol

/// A client connecting to app.sock or control.sock: admitted by its credentials before
/// anything it sends is read (control: the daemon's uid, root, or `--control-group`).
extension Hub {
    func connectionOpened(channel: Channel, kind: SocketKind, credentials: EventLoopFuture<PeerCredentials>) -> Connection {
        eventLoop.preconditionInEventLoop()
        nextConnectionID += 1
        let connection = Connection(id: nextConnectionID, kind: kind, channel: channel, clock: clock, flushes: flushes, logger: logger)
        connections[connection.id] = connection
        connection.onDrain = { [weak self] in self?.replay.clientDrained() }
        credentials.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .success(let credentials):
                connection.credentials = credentials
                let admission = ControlAdmission(ownerUID: configuration.ownerUID, group: configuration.controlGroup)
                if kind == .control, !admission.admits(credentials) {
                    logger.warning("control socket: refused a client of another user", metadata: ["uid": "\(credentials.uid)", "pid": "\(credentials.pid)"])
                    connection.sendAndClose(.errorResponse(id: .null, error: RPCError(.forbidden, admission.refusal)))
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
}
