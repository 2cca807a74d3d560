/// A D-Bus error: a name (`org.freedesktop.DBus.Error.InvalidArgs`, or a service's own)
/// and a message for people. Handlers throw it; the router sends it as the error reply.
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static func failed(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.Failed", message) }
    public static func invalidArgs(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.InvalidArgs", message) }
    public static func unknownMethod(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.UnknownMethod", message) }
    public static func unknownObject(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.UnknownObject", message) }
    public static func unknownInterface(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.UnknownInterface", message)
    }
    public static func unknownProperty(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.UnknownProperty", message) }
    public static func propertyReadOnly(_ message: String) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.PropertyReadOnly", message)
    }
    public static func accessDenied(_ message: String) -> DBusError { DBusError("org.freedesktop.DBus.Error.AccessDenied", message) }

    /// An sd-bus call that failed with a negative errno.
    static func system(_ what: String, _ result: Int32) -> DBusError {
        DBusError("org.freedesktop.DBus.Error.Failed", "\(what): \(String(cString: strerror(-result)))")
    }
}

#if canImport(Glibc)
import Glibc
#endif
