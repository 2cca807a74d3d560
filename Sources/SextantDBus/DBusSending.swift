import CSystemd
import Foundation
import Synchronization

/// What leaves the bus thread: replies, errors, signals. The `send…` calls run on the bus
/// thread; the `emit…` calls may come from any and are queued for it.
extension DBusConnection {
    func sendReply(to call: OpaquePointer, _ values: [DBusValue]) {
        guard sd_bus_message_get_expect_reply(call) > 0 else { return }
        var reply: OpaquePointer?
        guard sd_bus_message_new_method_return(call, &reply) >= 0, let reply else { return }
        defer { sd_bus_message_unref(reply) }
        do throws(DBusError) {
            try DBusMessageCoding.append(values, to: reply)
        } catch {
            sendError(to: call, error)
            return
        }
        sd_bus_send(bus, reply, nil)
    }

    func sendError(to call: OpaquePointer, _ error: DBusError) {
        var busError = sextant_bus_error_null()
        sd_bus_error_set(&busError, error.name, error.message)
        sd_bus_reply_method_error(call, &busError)
        sd_bus_error_free(&busError)
    }

    /// A signal to every peer listening, or to `destination` alone (a unique name).
    func sendSignal(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue], to destination: String?) {
        var signal: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &signal, path, interface, member) >= 0, let signal else { return }
        defer { sd_bus_message_unref(signal) }
        if let destination, sd_bus_message_set_destination(signal, destination) < 0 { return }
        guard (try? DBusMessageCoding.append(arguments, to: signal)) != nil else { return }
        sd_bus_send(bus, signal, nil)
    }

    /// Queues a signal from `path`, for every peer listening or for `destination` alone
    /// (GeoClue's LocationUpdated goes to the client's owner); from any thread.
    public func emitSignal(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue], to destination: String? = nil) {
        perform { [self] _ in sendSignal(path, interface, member, arguments, to: destination) }
    }

    /// Queues org.freedesktop.DBus.Properties.PropertiesChanged, for every peer listening or
    /// for `destination` alone (the values of an object only its owner may read).
    public func emitPropertiesChanged(
        _ path: String, _ interface: String, changed: [(String, DBusValue)], invalidated: [String] = [], to destination: String? = nil
    ) {
        let arguments: [DBusValue] = [
            .string(interface), .propertyMap(changed), .array(element: "s", invalidated.map { .string($0) }),
        ]
        emitSignal(path, Self.propertiesInterface, "PropertiesChanged", arguments, to: destination)
    }
}

/// A method call held until its handler answers; answered once, from any thread.
final class DBusIncomingCall: DBusCall {
    let sender: String
    let path: String
    let arguments: [DBusValue]
    private let connection: DBusConnection
    /// Referenced while the call waits; the reference is dropped on the bus thread.
    private let message: BusThreadBound<OpaquePointer>
    private let answered = Atomic(false)

    /// On the bus thread.
    init(connection: DBusConnection, message: OpaquePointer, sender: String, path: String, arguments: [DBusValue]) {
        self.connection = connection
        self.message = BusThreadBound(message, ownership: connection.ownership)
        self.sender = sender
        self.path = path
        self.arguments = arguments
        sd_bus_message_ref(message)
    }

    func reply(_ values: [DBusValue]) {
        answer { connection, message in connection.sendReply(to: message, values) }
    }

    func fail(_ error: DBusError) {
        answer { connection, message in connection.sendError(to: message, error) }
    }

    private func answer(_ send: @escaping @Sendable (DBusConnection, OpaquePointer) -> Void) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Self.send(message, on: connection, send)
    }

    /// Sends the answer and drops the reference on the bus thread; only drops it when the
    /// thread takes no more work.
    private static func send(
        _ message: BusThreadBound<OpaquePointer>, on connection: DBusConnection, _ send: @escaping @Sendable (DBusConnection, OpaquePointer) -> Void
    ) {
        let sent = connection.perform { [connection] _ in
            send(connection, message.value)
            sd_bus_message_unref(message.value)
        }
        if !sent { connection.dropRefused(message) }
    }

    deinit {
        // A handler that dropped the call: the client hears so now rather than at its timeout.
        if !answered.load(ordering: .acquiring) {
            Self.send(message, on: connection) { connection, message in connection.sendError(to: message, .failed("the call was not answered")) }
        }
    }
}
