/// A named argument of a method or signal, as introspection shows it.
public struct DBusArgument: Sendable, Equatable {
    public var name: String
    public var signature: String

    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// A method call as a handler sees it: who sent it, its arguments (already checked
/// against the method's in-signature), and the way to answer. ``reply(_:)`` and
/// ``fail(_:)`` may be called from any thread, once; a call dropped unanswered is answered
/// with `org.freedesktop.DBus.Error.Failed`, so that no client waits for its timeout.
public protocol DBusCall: Sendable {
    /// The sender's unique name (`:1.42`).
    var sender: String { get }
    var path: String { get }
    var arguments: [DBusValue] { get }
    func reply(_ values: [DBusValue])
    func fail(_ error: DBusError)
}

/// One method of an interface: its signatures (for checking calls and for introspection)
/// and its handler, called on the bus's thread.
public struct DBusMethod: Sendable {
    public var name: String
    public var inputs: [DBusArgument]
    public var outputs: [DBusArgument]
    public var handler: @Sendable (any DBusCall) -> Void

    public init(
        _ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [], handler: @escaping @Sendable (any DBusCall) -> Void
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
    }

    var inputSignature: String { inputs.map(\.signature).joined() }
}

/// One property. Its value lives in the ``DBusObject`` (set by the face with
/// ``DBusObject/set(_:_:_:)``), so that Get and GetAll answer at once on the bus's thread.
public struct DBusProperty: Sendable {
    public enum ChangeSignal: String, Sendable {
        /// PropertiesChanged carries the new value.
        case emits = "true"
        /// PropertiesChanged names the property only.
        case invalidates
        /// The value never changes while the object exists.
        case constant = "const"
        /// No PropertiesChanged.
        case none = "false"
    }

    public var name: String
    public var signature: String
    public var changeSignal: ChangeSignal
    /// Called on the bus's thread for Properties.Set with the sender and a value of the
    /// right signature; nil for a read-only property. The value is stored once it returns.
    public var setter: (@Sendable (_ sender: String, _ path: String, _ value: DBusValue) throws(DBusError) -> Void)?

    public init(
        _ name: String, _ signature: String, changeSignal: ChangeSignal = .emits,
        setter: (@Sendable (_ sender: String, _ path: String, _ value: DBusValue) throws(DBusError) -> Void)? = nil
    ) {
        self.name = name
        self.signature = signature
        self.changeSignal = changeSignal
        self.setter = setter
    }

    var access: String { setter == nil ? "read" : "readwrite" }
}

/// One signal, for introspection; sent with ``DBusObject/emit(_:_:_:)``.
public struct DBusSignal: Sendable {
    public var name: String
    public var arguments: [DBusArgument]

    public init(_ name: String, arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// One interface of an object: a table of methods, properties and signals. The router
/// dispatches calls, Properties and Introspectable from it.
public struct DBusInterface: Sendable {
    public var name: String
    public var methods: [DBusMethod]
    public var properties: [DBusProperty]
    public var signals: [DBusSignal]

    public init(_ name: String, methods: [DBusMethod] = [], properties: [DBusProperty] = [], signals: [DBusSignal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    func method(_ name: String) -> DBusMethod? { methods.first { $0.name == name } }
    func property(_ name: String) -> DBusProperty? { properties.first { $0.name == name } }
}
