import CSystemd
import Synchronization

/// Who a peer is, as the bus daemon vouches for it (GetConnectionCredentials): the faces
/// bind an app id to its uid as app.sock binds one to SO_PEERCRED's.
public struct DBusPeerCredentials: Sendable, Equatable {
    public var uid: UInt32
    /// Nil when the bus does not say (a peer on another machine's bus).
    public var pid: UInt32?

    public init(uid: UInt32, pid: UInt32?) {
        self.uid = uid
        self.pid = pid
    }
}

extension DBusConnection {
    /// Asks the bus for `name`'s credentials; `completion` runs on the bus thread, once,
    /// with the answer or the bus's error (the name left, the bus cannot tell its uid).
    public func credentials(of name: String, _ completion: @escaping @Sendable (Result<DBusPeerCredentials, DBusError>) -> Void) {
        let box = CredentialsRequest(completion)
        let queued = perform { bus in
            var message: OpaquePointer?
            var result = sd_bus_message_new_method_call(
                bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionCredentials")
            guard result >= 0, let message else { return box.finish(.failure(.system("GetConnectionCredentials", result))) }
            defer { sd_bus_message_unref(message) }
            do throws(DBusError) {
                try DBusMessageCoding.append([.string(name)], to: message)
            } catch {
                return box.finish(.failure(error))
            }
            // The slot is floating (nil): sd-bus keeps it until the reply or the bus goes.
            let context = Unmanaged.passRetained(box).toOpaque()
            result = sd_bus_call_async(bus, nil, message, credentialsReply, context, 0)
            if result < 0 {
                Unmanaged<CredentialsRequest>.fromOpaque(context).release()
                box.finish(.failure(.system("GetConnectionCredentials", result)))
            }
        }
        if !queued { completion(.failure(.failed("the bus connection is closed"))) }
    }
}

/// A credentials request waiting for the bus's reply: its completion runs once.
private final class CredentialsRequest: Sendable {
    private let completion: Mutex<(@Sendable (Result<DBusPeerCredentials, DBusError>) -> Void)?>

    init(_ completion: @escaping @Sendable (Result<DBusPeerCredentials, DBusError>) -> Void) { self.completion = Mutex(completion) }

    func finish(_ result: Result<DBusPeerCredentials, DBusError>) {
        let done = completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        done?(result)
    }
}

/// The reply to GetConnectionCredentials (an a{sv} with UnixUserID and ProcessID).
private let credentialsReply: sd_bus_message_handler_t = { message, context, error in
    guard let context else { return 0 }
    let request = Unmanaged<CredentialsRequest>.fromOpaque(context).takeRetainedValue()
    guard let message else {
        request.finish(.failure(.failed("GetConnectionCredentials: no reply")))
        return 0
    }
    if sd_bus_message_is_method_error(message, nil) > 0, let failure = sd_bus_message_get_error(message) {
        let name = failure.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        let text = failure.pointee.message.map { String(cString: $0) } ?? "GetConnectionCredentials failed"
        request.finish(.failure(DBusError(name, text)))
        return 0
    }
    guard DBusConnection.isFromTheBus(message) else {
        // Only the bus may say who a peer is: an answer forged by a peer would name any uid.
        request.finish(.failure(.failed("GetConnectionCredentials: an answer that did not come from the bus")))
        return 0
    }
    guard let values = try? DBusMessageCoding.readAll(message), case .array(_, let entries)? = values.first else {
        request.finish(.failure(.failed("GetConnectionCredentials: an answer that is not a{sv}")))
        return 0
    }
    var uid: UInt32?
    var pid: UInt32?
    for case .dictEntry(.string(let key), .variant(let value)) in entries {
        if key == "UnixUserID" { uid = value.uint32Value }
        if key == "ProcessID" { pid = value.uint32Value }
    }
    guard let uid else {
        request.finish(.failure(.failed("the bus does not say the peer's uid")))
        return 0
    }
    request.finish(.success(DBusPeerCredentials(uid: uid, pid: pid)))
    return 0
}

extension DBusObject {
    /// Replaces property values without announcing them: the face sends the change itself
    /// (to the owner alone, ``DBusConnection/emitPropertiesChanged(_:_:changed:invalidated:to:)``).
    public func replaceValues(_ interface: String, _ values: [(String, DBusValue)]) {
        for (name, value) in values { _ = store(interface, name, value) }
    }
}
