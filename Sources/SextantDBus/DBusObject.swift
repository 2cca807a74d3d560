import Synchronization

/// An object on the bus: a path and its table of interfaces, with the current value of
/// each property. The face that owns it sets values from any thread (``set(_:_:_:)``);
/// the router reads them on the bus's thread to answer Get and GetAll at once. It outlives
/// a connection: exported again on the next one, with the values it holds.
public final class DBusObject: Sendable {
    public let path: String
    public let interfaces: [DBusInterface]
    /// The one peer (a unique name) that may call it and read or set its properties; any
    /// other gets AccessDenied (GeoClue's clients and locations), and its signals and
    /// PropertiesChanged go to that peer alone. Nil: every peer.
    public let owner: String?
    private let state = Mutex(State())

    private struct State {
        /// Interface name → property name → value.
        var values: [String: [String: DBusValue]] = [:]
        /// The connection it is exported on, if any.
        weak var connection: DBusConnection?
    }

    public init(path: String, interfaces: [DBusInterface], owner: String? = nil) {
        self.path = path
        self.interfaces = interfaces
        self.owner = owner
    }

    func interface(_ name: String) -> DBusInterface? { interfaces.first { $0.name == name } }

    /// The property's value, nil before the face set one.
    public func value(_ interface: String, _ property: String) -> DBusValue? {
        state.withLock { $0.values[interface]?[property] }
    }

    /// Sets a property; when the value changed and the property says so, PropertiesChanged
    /// goes out on the connection, in the order of the calls.
    public func set(_ interfaceName: String, _ property: String, _ value: DBusValue) {
        guard let declared = interface(interfaceName)?.property(property) else {
            preconditionFailure("\(path): no property \(interfaceName).\(property)")
        }
        precondition(declared.signature == value.signature, "\(path): \(property) is \(declared.signature), not \(value.signature)")
        let (changed, connection) = state.withLock { state -> (Bool, DBusConnection?) in
            let old = state.values[interfaceName]?[property]
            state.values[interfaceName, default: [:]][property] = value
            return (old != nil && old != value, state.connection)
        }
        guard changed, let connection else { return }
        switch declared.changeSignal {
        case .emits: connection.emitPropertiesChanged(path, interfaceName, changed: [(property, value)], to: owner)
        case .invalidates: connection.emitPropertiesChanged(path, interfaceName, changed: [], invalidated: [property], to: owner)
        case .constant, .none: break
        }
    }

    /// Sends one of its signals (a no-op while it is not exported): to its owner alone, if
    /// it has one.
    public func emit(_ interfaceName: String, _ signal: String, _ arguments: [DBusValue]) {
        guard let connection = state.withLock({ $0.connection }) else { return }
        connection.emitSignal(path, interfaceName, signal, arguments, to: owner)
    }

    /// Every readable property of an interface with a value, in the table's order.
    func propertyValues(_ interfaceName: String) -> [(String, DBusValue)] {
        guard let declared = interface(interfaceName) else { return [] }
        return state.withLock { state in
            declared.properties.compactMap { property in state.values[interfaceName]?[property.name].map { (property.name, $0) } }
        }
    }

    /// Stores a value set by a client (Properties.Set), after its setter accepted it.
    func store(_ interfaceName: String, _ property: String, _ value: DBusValue) -> Bool {
        state.withLock { state in
            let old = state.values[interfaceName]?[property]
            state.values[interfaceName, default: [:]][property] = value
            return old != value
        }
    }

    func attach(to connection: DBusConnection?) { state.withLock { $0.connection = connection } }
}
