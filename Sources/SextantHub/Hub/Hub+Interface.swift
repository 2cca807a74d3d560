import SextantCore
import SextantProtocol

/// Each app's interface orientation (RULES O6–O11): a property of its session, as its
/// state is, decided by its `AppInterfaceOrientation` from the device's orientation
/// (the orientation judge's, O1–O5), the rotation lock and what the app declared.
extension Hub {
    /// What every app's interface orientation depends on, as the engines see it now.
    var interfaceConditions: InterfaceConditions {
        InterfaceConditions(
            profile: configuration.profile, deviceOrientation: motion.judge.orientation,
            lastUprightDeviceOrientation: motion.judge.lastUprightOrientation, rotationLock: motion.rotationLock)
    }

    /// The system rotation lock (O9); turning it off moves every foreground app at once (O9a).
    func setRotationLock(_ enabled: Bool) {
        guard motion.setRotationLock(enabled) else { return }
        logger.info("rotation lock \(enabled ? "on" : "off")")
        let conditions = interfaceConditions
        for session in sessions.ordered {
            publishInterface(session.interface.deviceChanged(conditions, state: appState(of: session)), to: session)
        }
    }

    /// Sends an interface change to the app it concerns, if it subscribed (O8–O11 decide
    /// whether there is one).
    func publishInterface(_ change: InterfaceOrientationChange?, to session: AppSession) {
        guard let change else { return }
        if session.hears(.orientation) {
            publish(to: session, InterfaceOrientationEvent(change: change))
        } else {
            broadcastToWatchers(Event.interfaceOrientation, change.json, app: session.app, session: session.id)
        }
        sessionChanged(session)
    }

}
