import SextantCore
import SextantProtocol

/// One of the daemon's faces as the hub sees it: a protocol other programs speak
/// (app.sock and control.sock, gpsd's, the D-Bus services), whatever it is. The daemon
/// fills the hub's list (`Hub.register(_:)`); the hub names no face, it asks each in turn.
/// Everything here is called on the hub's loop; each requirement has a default of "nothing".
protocol Face: AnyObject {
    /// Its members of `status` (`gpsdListeners`, `dbus`...).
    var statusMembers: [String: JSONValue] { get }
    /// Whether a max-speed replay should wait for one of its clients (PROTOCOL "Trace files").
    func holdsBackReplay(now: Int64) -> Bool
    /// The daemon stops: its clients are closed.
    func close()
    /// Each decision of the orientation judge (RULES O1–O5), whatever its source.
    func deviceOrientationChanged(_ orientation: DeviceOrientation)
    /// Each change of the Location Services switch (RULES L1).
    func servicesEnabledChanged(_ enabled: Bool)
    /// Each heading the heading engine decides (RULES H1–H5), whatever its source, in the
    /// device's natural orientation, before any app's rules.
    func headingDecided(_ heading: Heading)
}

extension Face {
    var statusMembers: [String: JSONValue] { [:] }
    func holdsBackReplay(now: Int64) -> Bool { false }
    func close() {}
    func deviceOrientationChanged(_ orientation: DeviceOrientation) {}
    func servicesEnabledChanged(_ enabled: Bool) {}
    func headingDecided(_ heading: Heading) {}
}

extension Hub {
    /// The face of type `F`, if the daemon registered one.
    func face<F: Face>(_ type: F.Type) -> F? {
        for face in faces { if let match = face as? F { return match } }
        return nil
    }
}
