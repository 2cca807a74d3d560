import Logging
import SextantDBus
import SextantHub

/// A face on D-Bus: a service other programs reach over the bus (iio-sensor-proxy's,
/// GeoClue's), answered from the hub's decisions.
///
/// The daemon makes each face once when it starts with `--dbus`, and hands it every
/// connection it makes to the bus (the first, and each after a loss):
/// 1. ``connected(_:)`` — on the bus supervisor's queue, before any name is claimed: the
///    face exports its objects (``DBusConnection/export(_:)``), so that a client that sees
///    the name appear finds them there. It may export and withdraw more later, from any thread.
/// 2. its ``busNames`` are claimed; then the connection's thread starts dispatching.
/// 3. ``peerLeft(_:)`` — on the bus's thread, for each unique name that leaves the bus:
///    the face frees what that sender held (claims, clients), hopping onto the hub's loop.
/// 4. ``disconnected()`` — the connection is gone (lost, or the daemon stops): every
///    sender's state goes, since each peer must call again on the next connection.
///
/// Method handlers run on the bus's thread: they hop onto the hub's event loop to read or
/// change anything of the hub's, and answer the call from there (``DBusCall`` is
/// thread-safe). Property values live in the ``DBusObject``; the face sets them from the
/// hub's loop as decisions are made, and PropertiesChanged goes out by itself.
protocol DBusFace: AnyObject, Sendable {
    init(hub: HubHandle, logger: Logger)
    /// The well-known names this face owns on the bus.
    var busNames: [String] { get }
    func connected(_ connection: DBusConnection)
    func peerLeft(_ uniqueName: String)
    func disconnected()
}

/// Every face the daemon serves on D-Bus.
enum DBusFaces {
    /// The one place a D-Bus face is registered.
    static let all: [any DBusFace.Type] = [SensorProxyFace.self, GeoClueFace.self]
}
