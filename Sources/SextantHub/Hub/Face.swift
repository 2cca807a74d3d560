import SextantCore
import SextantProtocol

/// One of the daemon's faces as the hub sees it: a protocol other programs speak
/// (app.sock and control.sock, gpsd's, the D-Bus services), whatever it is. The daemon
/// fills the hub's list (`Hub.register(_:)`); the hub names no face, it asks each in turn.
/// Everything here is called on the hub's loop; each requirement has a default of "nothing".
package protocol Face: AnyObject {
    /// Its members of `status` (`gpsdListeners`, `dbus`...).
    var statusMembers: [String: JSONValue] { get }
    /// Whether a max-speed replay should wait for one of its clients (PROTOCOL "Trace files").
    func holdsBackReplay(now: Int64) -> Bool
    /// The daemon stops: its clients are closed.
    func close()
    /// A change of the device a face may show whatever any app asked (the orientation
    /// judge's decision, the heading, the Location Services switch): one observation for
    /// every kind, so a new kind is a new ``DeviceChange`` type, not a method here. A face
    /// ignores the kinds it does not show.
    func observe(_ change: any DeviceChange)
}

/// Something the device decided, told to every face (``Face/observe(_:)``) whoever listens.
package protocol DeviceChange {}

/// The Location Services switch changed (RULES L1).
package struct ServicesEnabledChanged: DeviceChange {
    package let enabled: Bool
}

extension Face {
    package var statusMembers: [String: JSONValue] { [:] }
    package func holdsBackReplay(now: Int64) -> Bool { false }
    package func close() {}
    package func observe(_ change: any DeviceChange) {}
}

extension Hub {
    /// Every face sees `change`.
    func observed(_ change: any DeviceChange) {
        for face in faces { face.observe(change) }
    }

    /// The face of type `F`, if the daemon registered one.
    package func face<F: Face>(_ type: F.Type) -> F? {
        for face in faces { if let match = face as? F { return match } }
        return nil
    }
}
