import SextantProtocol

/// What the D-Bus faces follow of the hub's decisions. Each face adds its listeners on
/// the hub's loop when it is made; they are called on the loop, after the hub's own
/// sessions heard of the decision.
struct DBusFaceListeners {
    /// Each decision of the orientation judge (RULES O1–O5), whatever its source.
    var deviceOrientation: [(DeviceOrientation) -> Void] = []
    /// What each face shows in `status` (`dbus.faces`), by face.
    var faceStatus: [String: JSONValue] = [:]
    /// Each change of the Location Services switch (RULES L1).
    var servicesEnabled: [(Bool) -> Void] = []

    func deviceOrientationChanged(_ orientation: DeviceOrientation) {
        for listener in deviceOrientation { listener(orientation) }
    }

    func servicesEnabledChanged(_ enabled: Bool) {
        for listener in servicesEnabled { listener(enabled) }
    }
}

extension Hub {
    /// `status`'s `dbus`: null without `--dbus`; else the bus, its state, our unique name
    /// and the names held while connected.
    var dbusStatusJSON: JSONValue {
        guard let status = dbusBus else { return .null }
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
        object["faces"] = .object(dbusListeners.faceStatus)
        return .object(object)
    }
}
