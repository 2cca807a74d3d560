import CSystemd
import Foundation
import Synchronization

/// Which bus to connect to: `--dbus system|session|ADDRESS`.
public enum DBusBusAddress: Sendable, Equatable, CustomStringConvertible {
    case system
    case session
    /// A D-Bus server address (`unix:path=/run/dbus/system_bus_socket`).
    case address(String)

    /// `system`, `session`, or an address of the form `transport:key=value,...`.
    public init?(parsing text: String) {
        switch text {
        case "system": self = .system
        case "session": self = .session
        default:
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text[text.index(after: colon)...].contains("=")
            else { return nil }
            self = .address(text)
        }
    }

    public var description: String {
        switch self {
        case .system: return "system"
        case .session: return "session"
        case .address(let address): return address
        }
    }
}

/// One connection to a bus, driven by a thread of its own that owns the sd-bus object:
/// it sleeps in poll(2) on the bus's descriptor and an eventfd, processes incoming
/// messages (routing method calls to the exported objects' tables), and runs the work
/// other threads queue with ``perform(_:)`` (replies, signals), in the order queued.
///
/// Set up on the caller's thread (``connect(_:)``, ``export(_:)``, ``requestName(_:)``),
/// then ``start(onPeerLeft:onLost:)``; after that only the bus thread touches sd-bus
/// (``BusThreadBound`` checks it).
public final class DBusConnection: Sendable {
    public let address: DBusBusAddress
    /// Our unique name on the bus (`:1.42`).
    public let uniqueName: String
    private let owned: BusThreadBound<BusThreadState>
    private let wake: Int32
    private let shared = Mutex(SharedState())
    private let finished = DispatchSemaphore(value: 0)

    /// What other threads hand the bus thread, and the exported objects.
    private struct SharedState {
        var pending: [@Sendable (OpaquePointer) -> Void] = []
        var stopping = false
        var joined = false
        var objects: [String: DBusObject] = [:]
    }

    /// Work queued by other threads and not yet run; more is refused (a bus thread that
    /// cannot keep up must not grow without bound).
    static let pendingLimit = 8192

    private init(address: DBusBusAddress, owned: BusThreadBound<BusThreadState>, uniqueName: String, wake: Int32) {
        self.address = address
        self.owned = owned
        self.uniqueName = uniqueName
        self.wake = wake
    }

    /// The sd-bus object; on the thread that owns it.
    var bus: OpaquePointer { owned.value.bus }
    var ownership: BusThreadOwnership { owned.ownership }

    /// Connects and says hello to the bus.
    public static func connect(_ address: DBusBusAddress) throws(DBusError) -> DBusConnection {
        var bus: OpaquePointer?
        var result: Int32
        switch address {
        case .system: result = sd_bus_open_system(&bus)
        case .session: result = sd_bus_open_user(&bus)
        case .address(let text):
            result = sd_bus_new(&bus)
            if result >= 0 { result = text.withCString { sd_bus_set_address(bus, $0) } }
            if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
            if result >= 0 { result = sd_bus_start(bus) }
        }
        guard result >= 0, let bus else {
            if let bus { sd_bus_unref(bus) }
            throw DBusError.system("cannot connect to the \(address) bus", result)
        }
        var unique: UnsafePointer<CChar>?
        result = sd_bus_get_unique_name(bus, &unique)
        guard result >= 0, let unique else {
            sd_bus_flush_close_unref(bus)
            throw DBusError.system("the \(address) bus gave no unique name", result)
        }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            sd_bus_flush_close_unref(bus)
            throw DBusError.failed("eventfd: \(String(cString: strerror(errno)))")
        }
        let owned = BusThreadBound(BusThreadState(bus: bus), ownership: BusThreadOwnership())
        let connection = DBusConnection(address: address, owned: owned, uniqueName: String(cString: unique), wake: wake)
        try connection.installHandlers()
        return connection
    }

    /// One fallback handler at `/` routes every method call to the objects' table; one match
    /// hears peers leave (the bus's own signals only: the handler checks the sender too).
    private func installHandlers() throws(DBusError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let state = owned.value
        var slot: OpaquePointer?
        var result = sd_bus_add_fallback(state.bus, &slot, "/", routeMessage, context)
        if result < 0 { throw DBusError.system("cannot install the object router", result) }
        state.slots.append(slot!)
        let rule =
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"
        result = sd_bus_add_match(state.bus, &slot, rule, nameOwnerChanged, context)
        if result < 0 { throw DBusError.system("cannot watch peers leave the bus", result) }
        state.slots.append(slot!)
    }

    /// Claims a well-known name (before ``start``): fails when another connection owns it.
    public func requestName(_ name: String) throws(DBusError) {
        let result = sd_bus_request_name(bus, name, 0)
        if result < 0 { throw DBusError.system("cannot own \(name)", result) }
    }

    /// Exports an object (from any thread): calls to its path reach its table from now on.
    public func export(_ object: DBusObject) {
        shared.withLock { $0.objects[object.path] = object }
        object.attach(to: self)
    }

    /// Withdraws an object (from any thread).
    public func unexport(_ path: String) {
        let object = shared.withLock { $0.objects.removeValue(forKey: path) }
        object?.attach(to: nil)
    }

    func object(at path: String) -> DBusObject? { shared.withLock { $0.objects[path] } }
    var exportedPaths: [String] { shared.withLock { Array($0.objects.keys) } }

    /// Starts the bus thread, on the thread that connected. `onPeerLeft` hears each unique
    /// name that leaves the bus; `onLost`, once, that the connection is gone (after the
    /// thread let go of it).
    public func start(onPeerLeft: @escaping @Sendable (String) -> Void, onLost: @escaping @Sendable (DBusError) -> Void) {
        let state = owned.value
        state.onPeerLeft = onPeerLeft
        state.onLost = onLost
        ownership.handOver()
        let thread = Thread { [self] in
            ownership.claim()
            run()
        }
        thread.name = "sextant-dbus"
        thread.start()
    }

    /// Stops the bus thread and closes the connection; returns once it is closed. Not
    /// from the bus thread.
    public func stop() {
        let wait = shared.withLock { state -> Bool in
            state.stopping = true
            defer { state.joined = true }
            return !state.joined
        }
        wakeUp()
        if wait { finished.wait() }
        for path in exportedPaths { unexport(path) }
    }

    /// Queues work for the bus thread; false when refused (stopped, or too much queued).
    @discardableResult
    func perform(_ work: @escaping @Sendable (OpaquePointer) -> Void) -> Bool {
        let queued = shared.withLock { state -> Bool in
            guard !state.stopping, state.pending.count < Self.pendingLimit else { return false }
            state.pending.append(work)
            return true
        }
        if queued { wakeUp() }
        return queued
    }

    /// Drops a message reference that the bus thread would not take (``perform(_:)``
    /// refused the work): at once if the thread has closed the bus — under the lock, so
    /// that two threads doing so never use sd-bus at once — or never, while the thread may
    /// still be using the bus (a few bytes rather than a race with it).
    func dropRefused(_ message: BusThreadBound<OpaquePointer>) {
        shared.withLock { _ in
            guard ownership.isClosed else { return }
            sd_bus_message_unref(message.valueOnceClosed)
        }
    }

    private func wakeUp() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private func run() {
        let state = owned.value
        var lost: DBusError?
        while lost == nil {
            let (work, stop) = shared.withLock { shared -> ([@Sendable (OpaquePointer) -> Void], Bool) in
                defer { shared.pending.removeAll(keepingCapacity: true) }
                return (shared.pending, shared.stopping)
            }
            for item in work { item(state.bus) }
            if stop { break }
            lost = processAndWait()
        }
        for slot in state.slots { sd_bus_slot_unref(slot) }
        state.slots.removeAll()
        sd_bus_flush_close_unref(state.bus)
        close(wake)
        shared.withLock { shared in
            shared.stopping = true
            ownership.close()
        }
        finished.signal()
        if let lost { state.onLost(lost) }
    }

    /// Processes what the bus has for us, then sleeps until it has more, its next timeout,
    /// or queued work. Returns why the connection is lost, if it is.
    private func processAndWait() -> DBusError? {
        var result: Int32
        repeat { result = sd_bus_process(bus, nil) } while result > 0
        if result < 0 { return DBusError.system("the connection to the \(address) bus", result) }
        let events = sd_bus_get_events(bus)
        if events < 0 { return DBusError.system("the connection to the \(address) bus", events) }
        var descriptors = [
            pollfd(fd: sd_bus_get_fd(bus), events: Int16(events), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        let polled = poll(&descriptors, 2, pollTimeout())
        if polled < 0, errno != EINTR { return DBusError.failed("poll: \(String(cString: strerror(errno)))") }
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            var count: UInt64 = 0
            _ = read(wake, &count, 8)
        }
        return nil
    }

    /// sd-bus's next timeout (absolute, CLOCK_MONOTONIC µs) as poll's milliseconds.
    private func pollTimeout() -> Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(min((deadline - nowMicroseconds + 999) / 1000, 60_000))
    }

    fileprivate func peerLeft(_ name: String) { owned.value.onPeerLeft(name) }

    /// Whether the bus daemon itself sent `message`: it sends as `org.freedesktop.DBus`, a
    /// name no peer can own.
    static func isFromTheBus(_ message: OpaquePointer) -> Bool {
        sd_bus_message_get_sender(message).map { String(cString: $0) } == "org.freedesktop.DBus"
    }
}

/// What only the bus thread touches: the bus, the handlers' slots, and whom to tell
/// that a peer left or that the connection was lost.
private final class BusThreadState {
    let bus: OpaquePointer
    var slots: [OpaquePointer] = []
    var onPeerLeft: @Sendable (String) -> Void = { _ in }
    var onLost: @Sendable (DBusError) -> Void = { _ in }

    init(bus: OpaquePointer) { self.bus = bus }
}

/// sd-bus's message callback for every method call under `/`: hands it to the router.
private let routeMessage: sd_bus_message_handler_t = { message, context, _ in
    guard let message, let context else { return 0 }
    return Unmanaged<DBusConnection>.fromOpaque(context).takeUnretainedValue().route(message)
}

/// The bus's NameOwnerChanged: a unique name losing its owner is a peer that left.
///
/// Only the bus's own: any peer may send us a signal of that name, addressed to us alone,
/// and sd-bus matches a rule's `sender='org.freedesktop.DBus'` only on the bus's side (it
/// cannot tell a well-known sender locally), so the sender is checked here.
private let nameOwnerChanged: sd_bus_message_handler_t = { message, context, _ in
    guard let message, let context, DBusConnection.isFromTheBus(message),
        let values = try? DBusMessageCoding.readAll(message), values.count == 3,
        let name = values[0].stringValue, let oldOwner = values[1].stringValue, let newOwner = values[2].stringValue,
        name.hasPrefix(":"), !oldOwner.isEmpty, newOwner.isEmpty
    else { return 0 }
    Unmanaged<DBusConnection>.fromOpaque(context).takeUnretainedValue().peerLeft(name)
    return 0
}
