import CSystemd

/// The router: every method call under `/` comes here (on the bus thread) and is answered
/// from the exported objects' tables — the object's own interfaces, and
/// org.freedesktop.DBus.Properties and .Introspectable for all of them. Peer is sd-bus's.
extension DBusConnection {
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let introspectableInterface = "org.freedesktop.DBus.Introspectable"

    func route(_ message: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(message, nil, nil) > 0,
            let path = sd_bus_message_get_path(message).map({ String(cString: $0) }),
            let member = sd_bus_message_get_member(message).map({ String(cString: $0) })
        else { return 0 }
        let interface = sd_bus_message_get_interface(message).map { String(cString: $0) }
        if interface == "org.freedesktop.DBus.Peer" { return 0 }
        do throws(DBusError) {
            if interface == Self.introspectableInterface, member == "Introspect" {
                try checkSignature(message, "")
                sendReply(to: message, [.string(DBusIntrospection.xml(for: object(at: path), children: childNodes(of: path)))])
                return 1
            }
            guard let object = object(at: path) else { throw DBusError.unknownObject("no object at \(path)") }
            if let owner = object.owner, sd_bus_message_get_sender(message).map({ String(cString: $0) }) != owner {
                throw DBusError.accessDenied("Access denied")
            }
            if interface == Self.propertiesInterface {
                try properties(member, message, object)
            } else {
                try call(member, interface: interface, message, object)
            }
        } catch {
            sendError(to: message, error)
        }
        return 1
    }

    private func call(_ member: String, interface: String?, _ message: OpaquePointer, _ object: DBusObject) throws(DBusError) {
        let candidates = interface.map { name in object.interface(name).map { [$0] } ?? [] } ?? object.interfaces
        if let interface, candidates.isEmpty { throw DBusError.unknownInterface("\(object.path) has no interface \(interface)") }
        guard let table = candidates.first(where: { $0.method(member) != nil }), let method = table.method(member) else {
            throw DBusError.unknownMethod("no method \(member) in \(interface ?? "any interface") of \(object.path)")
        }
        try checkSignature(message, method.inputSignature)
        let arguments = try DBusPeerInput.read(message) { index, _ in "argument \(index + 1) of \(table.name).\(member)" }
        let sender = sd_bus_message_get_sender(message).map { String(cString: $0) } ?? ""
        method.handler(DBusIncomingCall(connection: self, message: message, sender: sender, path: object.path, arguments: arguments))
    }

    private func properties(_ member: String, _ message: OpaquePointer, _ object: DBusObject) throws(DBusError) {
        switch member {
        case "Get":
            try checkSignature(message, "ss")
            let (interface, name) = try interfaceAndProperty(message, object, member)
            guard let value = object.value(interface.name, name) else { throw DBusError.failed("\(name) has no value yet") }
            sendReply(to: message, [.variant(value)])
        case "GetAll":
            try checkSignature(message, "s")
            let arguments = try DBusPeerInput.read(message) { _, _ in "argument 1 of \(Self.propertiesInterface).GetAll" }
            let name = arguments[0].stringValue ?? ""
            // An empty interface name asks for every interface's (as GDBus allows).
            if !name.isEmpty, object.interface(name) == nil {
                throw DBusError.unknownInterface("\(object.path) has no interface \(name)")
            }
            let values =
                name.isEmpty ? object.interfaces.flatMap { object.propertyValues($0.name) } : object.propertyValues(name)
            sendReply(to: message, [.propertyMap(values)])
        case "Set":
            try checkSignature(message, "ssv")
            try setProperty(message, object)
        default:
            throw DBusError.unknownMethod("no method \(member) in \(Self.propertiesInterface)")
        }
    }

    private func setProperty(_ message: OpaquePointer, _ object: DBusObject) throws(DBusError) {
        // The value is named by the property it is for; the two names before it are bounded first.
        let arguments = try DBusPeerInput.read(message) { index, values in
            index < 2 ? "argument \(index + 1) of \(Self.propertiesInterface).Set" : "\(values[0].stringValue ?? "").\(values[1].stringValue ?? "")"
        }
        guard let interfaceName = arguments[0].stringValue, let name = arguments[1].stringValue, case .variant(let value) = arguments[2]
        else { throw DBusError.invalidArgs("Set takes (ssv)") }
        guard let interface = object.interface(interfaceName) else {
            throw DBusError.unknownInterface("\(object.path) has no interface \(interfaceName)")
        }
        guard let property = interface.property(name) else { throw DBusError.unknownProperty("no property \(interfaceName).\(name)") }
        guard let setter = property.setter else { throw DBusError.propertyReadOnly("\(interfaceName).\(name) is read-only") }
        guard value.signature == property.signature else {
            throw DBusError.invalidArgs("\(interfaceName).\(name) is of type \(property.signature), not \(value.signature)")
        }
        let sender = sd_bus_message_get_sender(message).map { String(cString: $0) } ?? ""
        try setter(sender, object.path, value)
        sendReply(to: message, [])
        if object.store(interface.name, name, value), property.changeSignal == .emits {
            emitPropertiesChanged(object.path, interface.name, changed: [(name, value)], to: object.owner)
        }
    }

    private func interfaceAndProperty(_ message: OpaquePointer, _ object: DBusObject, _ member: String) throws(DBusError) -> (DBusInterface, String) {
        let arguments = try DBusPeerInput.read(message) { index, _ in "argument \(index + 1) of \(Self.propertiesInterface).\(member)" }
        let interfaceName = arguments[0].stringValue ?? ""
        let name = arguments[1].stringValue ?? ""
        guard let interface = object.interface(interfaceName) else {
            throw DBusError.unknownInterface("\(object.path) has no interface \(interfaceName)")
        }
        guard interface.property(name) != nil else { throw DBusError.unknownProperty("no property \(interfaceName).\(name)") }
        return (interface, name)
    }

    private func checkSignature(_ message: OpaquePointer, _ expected: String) throws(DBusError) {
        let actual = sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? ""
        guard actual == expected else { throw DBusError.invalidArgs("expected arguments (\(expected)), got (\(actual))") }
    }

    /// The names of the nodes one level below `path` that lead to exported objects.
    func childNodes(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        let names = exportedPaths.compactMap { exported -> String? in
            guard exported.hasPrefix(prefix), exported.count > prefix.count else { return nil }
            return exported.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        }
        return Array(Set(names)).sorted()
    }
}
