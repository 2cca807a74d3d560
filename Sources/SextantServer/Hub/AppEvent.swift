import NIOCore
import SextantCore
import SextantProtocol

/// What an app session hears, as the hub decided it and before any face puts it into its
/// own protocol: JSON-RPC notifications on app.sock, and whatever other faces speak.
enum AppEvent {
    /// A fix the app may have, already reduced when its accuracy is (RULES L10).
    case location(LocationFix, LocationAccuracy)
    case authorization(AuthorizationSnapshot)
    case servicesEnabled(Bool)
    case deviceOrientation(DeviceOrientationChange)
    case interfaceOrientation(InterfaceOrientationChange)
    case posture(PostureChange)
    case locationUnavailable(reason: String)

    /// The event's name on the wire (PROTOCOL "Events to apps").
    var method: String {
        switch self {
        case .location: return Event.location
        case .authorization: return Event.authorization
        case .servicesEnabled: return Event.servicesEnabled
        case .deviceOrientation: return Event.deviceOrientation
        case .interfaceOrientation: return Event.interfaceOrientation
        case .posture: return Event.posture
        case .locationUnavailable: return Event.locationUnavailable
        }
    }

    /// Its params on the wire.
    var params: JSONValue {
        switch self {
        case .location(let fix, let accuracy): return fix.json(accuracy: accuracy)
        case .authorization(let snapshot): return snapshot.json
        case .servicesEnabled(let enabled): return ["enabled": .bool(enabled)]
        case .deviceOrientation(let change): return change.json
        case .interfaceOrientation(let change): return change.json
        case .posture(let change): return change.json
        case .locationUnavailable(let reason): return ["reason": .string(reason)]
        }
    }

    /// Its JSON-RPC notification line, with its newline: a location's straight into bytes
    /// (``LocationLine``), any other event's through the general encoder.
    func jsonRPCLine(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        if case .location(let fix, let accuracy) = self {
            var buffer = allocator.buffer(capacity: LocationLine.capacity)
            LocationLine.write(fix, accuracy: accuracy, into: &buffer)
            return buffer
        }
        let text = RPCMessage.notification(method: method, params: params).line
        var buffer = allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        return buffer
    }

    /// How a slow client's queue treats it (PROTOCOL "Transport").
    var kind: OutboundKind {
        switch self {
        case .location: return .location
        case .deviceOrientation, .posture: return .sensor
        case .authorization, .servicesEnabled, .interfaceOrientation, .locationUnavailable: return .essential
        }
    }
}

/// An event on its way to any number of sessions: its JSON-RPC line is encoded once, on
/// first use, and the same bytes go to every app.sock session that may have it.
final class SharedEvent {
    let event: AppEvent
    private var line: ByteBuffer?
    /// The line in a chunk of lines shared between connections, once one asked for it.
    private var sharedRun: SharedLineRun?

    init(_ event: AppEvent) { self.event = event }

    func jsonRPCLine(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        if let line { return line }
        let buffer = event.jsonRPCLine(allocator)
        line = buffer
        return buffer
    }

    /// Where the line is in `chunks`: appended there once, for every connection.
    func run(in chunks: SharedLineChunks, _ allocator: ByteBufferAllocator) -> SharedLineRun {
        if let sharedRun { return sharedRun }
        let run = chunks.append(jsonRPCLine(allocator))
        sharedRun = run
        return run
    }
}

/// The face an app session came through: where its events go, in that face's protocol.
/// app.sock's `Connection` is one; a face for another protocol (gpsd's, D-Bus) adds its own.
protocol SessionOutput: AnyObject {
    /// An event the rules let this session have, in the order decided.
    func deliver(_ event: AppEvent)
    /// The same, for an event that may go to many sessions: a face that can share its
    /// encoding between them does so here.
    func deliver(_ shared: SharedEvent)
    /// Locations queued but not yet written are dropped: delivery stopped being allowed (L9).
    func discardQueuedLocations()
    /// Who the peer is, when the face can tell (`apps.list`).
    var peer: PeerCredentials? { get }
    /// The face's name in `apps.list` (`app` for app.sock).
    var face: String { get }
}

extension SessionOutput {
    func deliver(_ shared: SharedEvent) { deliver(shared.event) }
}

extension Connection: SessionOutput {
    func deliver(_ event: AppEvent) { sendLine(event.jsonRPCLine(channel.allocator), kind: event.kind) }
    func deliver(_ shared: SharedEvent) { sendShared(shared) }
    var peer: PeerCredentials? { credentials }
    var face: String { kind.rawValue }
}

extension DeviceOrientationChange {
    /// The `deviceOrientation` event's params.
    var json: JSONValue {
        ["orientation": .string(orientation.rawValue), "previous": .string(previous.rawValue), "time": .string(time.rfc3339)]
    }
}

extension InterfaceOrientationChange {
    /// The `interfaceOrientation` event's params.
    var json: JSONValue { ["orientation": .string(orientation.rawValue), "previous": JSONValue(previous?.rawValue)] }
}
