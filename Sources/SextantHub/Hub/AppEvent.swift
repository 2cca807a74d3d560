import NIOCore
import SextantCore
import SextantProtocol

/// One kind of event an app session hears, as the hub decided it, before any face puts it
/// into its own protocol. A new kind is one type: its topic, whether it tells where the
/// device is, how a slow client's queue treats it, and its JSON-RPC form (app.sock and the
/// watchers). A face that speaks it in another protocol conforms it to that face's protocol
/// (``GPSDEncodable``, ``GeoClueEncodable``); a face it does not conform to ignores it.
package protocol AppEventKind {
    /// The topic a session subscribes to, to hear it.
    static var topic: AppTopic { get }
    /// Whether it says anything about where the device is: after a revoke none of these
    /// reaches the app, whatever its kind (L9, ``Hub/mayLeave(_:for:)``).
    static var isLocationDerived: Bool { get }
    /// Whether it leaves only for a session authorized for full accuracy (a `region`
    /// event: RULES R10); only a location-derived kind may say so.
    static var needsFullAccuracy: Bool { get }
    /// Whether it is one of Always's powers in the background (a region, visit or
    /// significant-change event): held for the iOS upgrade prompt (docs/platforms.md I3).
    static var needsAlwaysInBackground: Bool { get }
    /// How a slow client's queue treats it (PROTOCOL "Transport").
    var outboundKind: OutboundKind { get }
    /// The event's name on the wire (PROTOCOL "Events to apps").
    var method: String { get }
    /// Its params on the wire.
    var params: JSONValue { get }
    /// Its JSON-RPC notification line, with its newline.
    func jsonRPCLine(_ allocator: ByteBufferAllocator) -> ByteBuffer
}

extension AppEventKind {
    package static var isLocationDerived: Bool { false }
    package static var needsFullAccuracy: Bool { false }
    package static var needsAlwaysInBackground: Bool { false }
    var isLocationDerived: Bool { Self.isLocationDerived }
    var needsFullAccuracy: Bool { Self.needsFullAccuracy }
    var topic: AppTopic { Self.topic }

    /// Through the general encoder; a kind on a hot path writes its own bytes.
    package func jsonRPCLine(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        let text = RPCMessage.notification(method: method, params: params).line
        var buffer = allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        return buffer
    }
}

package struct AuthorizationEvent: AppEventKind {
    let snapshot: AuthorizationSnapshot
    package static var topic: AppTopic { .session }
    package var outboundKind: OutboundKind { .essential }
    package var method: String { Event.authorization }
    package var params: JSONValue { snapshot.json }
}

package struct ServicesEnabledEvent: AppEventKind {
    let enabled: Bool
    package static var topic: AppTopic { .session }
    package var outboundKind: OutboundKind { .essential }
    package var method: String { Event.servicesEnabled }
    package var params: JSONValue { ["enabled": .bool(enabled)] }
}

/// An event on its way to any number of sessions: its JSON-RPC line is encoded once, on
/// first use, and the same bytes go to every app.sock session that may have it.
package final class SharedEvent {
    let event: any AppEventKind
    /// The event's gate (``Hub/mayLeave(_:for:)``), read once here rather than through the
    /// existential on every delivery.
    let topic: AppTopic
    let isLocationDerived: Bool
    let needsFullAccuracy: Bool
    private var line: ByteBuffer?
    /// The line in a chunk of lines shared between connections, once one asked for it.
    private var sharedRun: SharedLineRun?
    /// The same place without the chunk (``SharedLinePlace``); chunk 0 until then.
    private(set) var place = SharedLinePlace(chunk: 0, start: 0, end: 0)
    /// Whether a watcher's topics take it, as of the watchers' generation `watchedAt`:
    /// asked once for all its deliveries (``Hub/publish(to:_:)``).
    private var watched = false
    private var watchedAt = -1

    init(_ event: any AppEventKind) {
        self.event = event
        topic = event.topic
        isLocationDerived = event.isLocationDerived
        needsFullAccuracy = event.needsFullAccuracy
    }

    func jsonRPCLine(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        if let line { return line }
        let buffer = event.jsonRPCLine(allocator)
        line = buffer
        return buffer
    }

    /// Whether a watcher's topics take the event (whatever app it watches): the question
    /// its deliveries would each ask the watchers otherwise.
    func mayBeWatched(by watchers: WatcherTable) -> Bool {
        if watchedAt != watchers.generation {
            watchedAt = watchers.generation
            watched = watchers.mayAdmit(event.method)
        }
        return watched
    }

    /// Where the line is in `chunks`: appended there once, for every connection.
    func run(in chunks: SharedLineChunks, _ allocator: ByteBufferAllocator) -> SharedLineRun {
        if let sharedRun { return sharedRun }
        let run = chunks.append(jsonRPCLine(allocator))
        sharedRun = run
        place = run.place
        return run
    }
}

/// Events that differ between sessions only by a few values (`Key`): each distinct one is
/// made once, on first use, and shared (``SharedEvent``) by every session with that key.
struct SharedEvents<Key: Hashable> {
    private var made: [Key: SharedEvent] = [:]

    /// The shared event for `key`, made by `make` the first time it is asked for.
    mutating func event(for key: Key, _ make: () -> any AppEventKind) -> SharedEvent {
        if let event = made[key] { return event }
        let event = SharedEvent(make())
        made[key] = event
        return event
    }
}

/// The face an app session came through: where its events go, in that face's protocol.
/// app.sock's `Connection` is one; a face for another protocol (gpsd's, D-Bus) adds its own.
package protocol SessionOutput: AnyObject {
    /// An event the rules let this session have, in the order decided. A face that does
    /// not speak the event's kind ignores it.
    func deliver(_ event: any AppEventKind)
    /// The same, for an event that may go to many sessions: a face that can share its
    /// encoding between them does so here.
    func deliver(_ shared: SharedEvent)
    /// The same for shared events that go out one after the other, all decided at once (a
    /// session taking a replay's turn of fixes as they are): one call
    /// for the run instead of one each.
    func deliver(run: ArraySlice<SharedEvent>)
    /// Location-derived events queued but not yet written are dropped: delivery stopped
    /// being allowed (L9).
    func discardQueuedLocations()
    /// Who the peer is, when the face can tell (`apps.list`).
    var peer: PeerCredentials? { get }
    /// The face's name in `apps.list` (`app` for app.sock).
    var face: String { get }
    /// Where a shared event's JSON-RPC line goes as it is, when the face sends such lines
    /// through a writer of its own (app.sock): the hub hands the line to the writer itself,
    /// so that a delivery does not also reach into the face's object (a cache miss each, in a
    /// fan-out to a thousand sessions). nil: the face's `deliver` is called.
    var sharedLineWriter: LineWriter? { get }
}

extension SessionOutput {
    package var sharedLineWriter: LineWriter? { nil }
    package func deliver(_ shared: SharedEvent) { deliver(shared.event) }
    package func deliver(run: ArraySlice<SharedEvent>) { for shared in run { deliver(shared) } }
}

extension InterfaceOrientationChange {
    /// The `interfaceOrientation` event's params.
    var json: JSONValue { ["orientation": .string(orientation.rawValue), "previous": JSONValue(previous?.rawValue)] }
}
