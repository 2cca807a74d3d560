import SextantCore
import SextantProtocol

/// Accelerometer and hinge readings in (``SensorHandlers``); device orientation, interface orientation and
/// posture events out (RULES O1–O11, P1–P4). The engines decide; the hub only routes
/// their decisions to the sessions that asked for them.
extension Hub {
    /// What every app's interface orientation depends on, as the engines see it now.
    var interfaceConditions: InterfaceConditions {
        InterfaceConditions(
            profile: configuration.profile, deviceOrientation: motion.judge.orientation,
            lastUprightDeviceOrientation: motion.judge.lastUprightOrientation, rotationLock: motion.rotationLock)
    }

    /// One accelerometer reading its arbiter let through (RULES O1–O5).
    func accelerometerSample(_ reading: Acceleration, at time: Timestamp) {
        guard let change = motion.judgeAcceleration(reading, at: time) else { return }
        logger.debug("device orientation", metadata: ["orientation": "\(change.orientation.rawValue)", "previous": "\(change.previous.rawValue)"])
        let conditions = interfaceConditions
        let event = SharedEvent(DeviceOrientationEvent(change: change))
        for session in sessions.ordered {
            if session.hears(.orientation) { publish(to: session, event) }
            // O7: each foreground app follows, in the same turn, after the device event.
            publishInterface(session.interface.deviceChanged(conditions, state: appState(of: session)), to: session)
        }
        if !sessions.ordered.contains(where: { $0.hears(.orientation) }) {
            broadcastToWatchers(Event.deviceOrientation, change.json, kind: .sensor)
        }
        for face in faces { face.deviceOrientationChanged(change.orientation) }
    }

    /// One hinge angle its arbiter let through (P1–P4).
    func hingeSample(_ angle: Double, at time: Timestamp) {
        guard let change = motion.judgeHinge(angle, at: time) else { return }
        logger.debug("posture", metadata: ["state": "\(change.state.rawValue)", "angle": "\(angle)"])
        let event = SharedEvent(PostureEvent(change: change))
        for session in sessions.ordered where session.hears(.posture) {
            publish(to: session, event)
        }
        if !sessions.ordered.contains(where: { $0.hears(.posture) }) {
            broadcastToWatchers(Event.posture, change.json, kind: .sensor)
        }
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

    /// `posture` in `hello` and `status`: the last decision, or null before the first hinge sample.
    var postureJSON: JSONValue { motion.lastPosture?.json ?? .null }
}

/// The engine each sensor kind's readings go to, once arbitrated: one line a kind that
/// an engine of the hub judges. A kind without a line here is recorded, not judged.
enum SensorHandlers {
    static let all: [SensorKind.ID: @Sendable (Hub, SensorReading, Timestamp) -> Void] = [
        SensorKind.accelerometer.id: { hub, reading, time in
            hub.headingGravity(Acceleration(reading)!)
            hub.accelerometerSample(Acceleration(reading)!, at: time)
            hub.motionSample(Acceleration(reading)!, at: time)
        },
        SensorKind.hinge.id: { hub, reading, time in hub.hingeSample(reading.hingeAngle!, at: time) },
        SensorKind.magnetometer.id: { hub, reading, time in hub.magnetometerSample(MagneticField(reading)!, at: time) },
        SensorKind.compass.id: { hub, reading, time in hub.compassSample(CompassReading(reading)!, at: time) },
    ]
}

extension PostureChange {
    /// The `posture` event's params.
    var json: JSONValue {
        [
            "state": .string(state.rawValue), "previous": JSONValue(previous?.rawValue), "hingeAngle": .double(hingeAngle),
            "fold": .string(fold.rawValue), "time": .string(time.rfc3339),
        ]
    }
}
