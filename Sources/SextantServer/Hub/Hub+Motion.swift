import SextantCore
import SextantProtocol

/// Accelerometer and hinge samples in; device orientation, interface orientation and
/// posture events out (RULES O1–O11, P1–P4). The engines decide; the hub only routes
/// their decisions to the sessions that asked for them.
extension Hub {
    /// What every app's interface orientation depends on, as the engines see it now.
    var interfaceConditions: InterfaceConditions {
        InterfaceConditions(
            profile: configuration.profile, deviceOrientation: judge.orientation,
            lastUprightDeviceOrientation: judge.lastUprightOrientation, rotationLock: rotationLock)
    }

    /// One accelerometer reading from any source. A reading held by hand (O4a) outranks a
    /// replay, which outranks a live sensor (``SensorArbiter``); a replay that carries
    /// accelerometer samples ends a hold, as a new instruction.
    func accelerometerSample(_ reading: Acceleration, at time: Timestamp, from source: SourceName) {
        if source == .replay, manualAccelerometer.isHolding { manualAccelerometer.release() }
        guard accelerometerArbiter.admits(SensorArbiter.Rank(source: source), at: clock.monotonicNanoseconds()),
            let change = judge.judge(reading, at: time)
        else { return }
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

    /// One hinge angle from any source (P1–P4), arbitrated like the accelerometer.
    func hingeSample(_ angle: Double, at time: Timestamp, from source: SourceName) {
        guard hingeArbiter.admits(SensorArbiter.Rank(source: source), at: clock.monotonicNanoseconds()),
            let change = postureEngine.judge(hingeAngle: angle, at: time, lastUprightDeviceOrientation: judge.lastUprightOrientation)
        else { return }
        lastPosture = change
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
        guard enabled != rotationLock else { return }
        rotationLock = enabled
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
    }

    /// `posture` in `hello` and `status`: the last decision, or null before the first hinge sample.
    var postureJSON: JSONValue { lastPosture?.json ?? .null }
}

extension SensorArbiter.Rank {
    init(source: SourceName) {
        switch source {
        case .manual: self = .manual
        case .replay: self = .replay
        case .gpsd, .iio: self = .live
        }
    }
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
