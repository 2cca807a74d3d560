import Logging
import NIOCore
import SextantCore
import SextantHub
import SextantProtocol

/// One client of app.sock or control.sock, confined to the hub's event loop: JSON-RPC
/// lines in, answers and notifications out through its ``LineWriter``.
final class Connection {
    let id: UInt64
    let socket: SocketKind
    let writer: LineWriter
    var credentials: PeerCredentials?
    /// The app session, once `hello` succeeded (app socket only).
    var session: SessionID?
    /// While a request that opens the session waits (`hello` binding its app id): the
    /// lines read behind it, handled once it is answered. nil when not holding.
    var heldFrames: [InboundFrame]?

    init(id: UInt64, socket: SocketKind, channel: Channel, clock: SextantClock, flushes: FlushBatcher, logger: Logger) {
        self.id = id
        self.socket = socket
        self.writer = LineWriter(channel: channel, clock: clock, flushes: flushes, logger: logger)
        writer.label = { [unowned self] in label }
    }

    var channel: Channel { writer.channel }
    var isClosed: Bool { writer.isClosed }

    var label: String {
        var s = "\(socket.rawValue)#\(id)"
        if let credentials { s += " pid \(credentials.pid) uid \(credentials.uid)" }
        return s
    }

    func send(_ message: RPCMessage, kind: OutboundKind) { writer.send(message.line, kind: kind) }

    /// An answer leaves at the end of this turn, ahead of whatever else the turn wrote.
    func respond(_ id: JSONValue, _ result: Result<JSONValue, RPCError>) {
        switch result {
        case .success(let value): writer.sendAnswer(RPCMessage.response(id: id, result: value).line)
        case .failure(let error): writer.sendAnswer(RPCMessage.errorResponse(id: id, error: error).line)
        }
    }

    func notify(_ method: String, _ params: JSONValue, kind: OutboundKind) {
        send(.notification(method: method, params: params), kind: kind)
    }

    func close() { writer.close() }

    func sendAndClose(_ message: RPCMessage) { writer.sendAndClose(message.line) }

    func setReading(_ reading: Bool) {
        _ = channel.setOption(ChannelOptions.autoRead, value: reading)
        if reading { channel.read() }
    }
}

extension Connection: RPCPeer {
    func deliver(_ event: any AppEventKind) { writer.sendLine(event.jsonRPCLine(writer.allocator), kind: event.outboundKind) }
    /// Shared events go to the writer straight from the session (``AppSession/deliver(_:)``).
    var sharedLineWriter: LineWriter? { writer }
    func discardQueuedLocations() { writer.discardQueuedLocations() }
    var peer: PeerCredentials? { credentials }
    var face: String { socket.rawValue }
}
