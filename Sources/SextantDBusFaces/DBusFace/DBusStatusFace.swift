import SextantHub
import SextantProtocol

/// The daemon's D-Bus connection as `status` shows it (`dbus`): null without `--dbus`;
/// else the bus, its state, our unique name, the names held while connected, and what each
/// D-Bus face shows of itself (`dbus.faces`).
package final class DBusStatusFace: Face {
    private(set) var bus: DBusBusStatus?
    private(set) var faceStatus: [String: JSONValue] = [:]

    package init() {}

    /// The bus connection's state changed (`DBusBusService`).
    func busChanged(_ status: DBusBusStatus) { bus = status }

    /// What the D-Bus face `name` shows in `status` now.
    func setStatus(of name: String, _ status: JSONValue) { faceStatus[name] = status }

    package var statusMembers: [String: JSONValue] { ["dbus": json] }

    private var json: JSONValue {
        guard let status = bus else { return .null }
        var object: [String: JSONValue] = ["bus": .string(status.bus.description)]
        switch status.state {
        case .connecting:
            object["state"] = "connecting"
            object["names"] = .array([])
        case .connected(let uniqueName, let names):
            object["state"] = "connected"
            object["uniqueName"] = .string(uniqueName)
            object["names"] = .array(names.map { .string($0) })
        case .retrying(let reason):
            object["state"] = "retrying"
            object["error"] = .string(reason)
            object["names"] = .array([])
        }
        object["faces"] = .object(faceStatus)
        return .object(object)
    }
}
