import SextantCore
import SextantProtocol

/// `device.set`: values set by hand — a fix, a held acceleration or orientation, a held
/// hinge angle, a held magnetic field or heading (O4a) — as samples of the manual source,
/// stamped with the wall clock.
struct DeviceSetMethod: RPCMethod {
    static let name = Method.deviceSet
    let location: LocationFix?
    /// Readings to hold, each checked as a trace's sample of its kind is.
    let holds: [SensorReading]
    /// Kinds given back to the replay and the live sensors.
    let releases: [SensorKind.ID]
    /// The gravity of the orientation asked for: the hand turns the device to it (D7).
    let turn: Acceleration?

    init(_ p: Params) throws(RPCError) {
        let request = try DeviceSet(p)
        location = try p.object("location").map { (o) throws(RPCError) in try Self.fix(o) }
        var holds: [SensorReading] = []
        var releases: [SensorKind.ID] = []
        switch request.acceleration {
        case .reading(let x, let y, let z):
            if let problem = Acceleration.problem(x: x, y: y, z: z) { throw .invalidParams("acceleration: \(problem)") }
            if request.orientation == nil { holds.append(Acceleration(x: x, y: y, z: z).reading) }
        case .released: releases.append(SensorKind.accelerometer.id)
        case .none: break
        }
        turn = try request.orientation.map { (orientation) throws(RPCError) in
            guard let gravity = ManualGravity.vector(for: orientation) else {
                throw .invalidParams("\"orientation\" must be an upright orientation, faceUp or faceDown")
            }
            return gravity
        }
        if let hingeAngle = request.hingeAngle {
            guard (0...180).contains(hingeAngle) else { throw .invalidParams("\"hingeAngle\" must be within 0...180") }
            holds.append(SensorReading(hingeAngle: hingeAngle))
        } else if request.releasesHinge {
            releases.append(SensorKind.hinge.id)
        }
        switch request.magneticField {
        case .reading(let x, let y, let z): holds.append(try Self.checked(.magnetometer, "magneticField", [x, y, z]))
        case .released: releases.append(SensorKind.magnetometer.id)
        case .none: break
        }
        switch request.heading {
        case .reading(let magnetic, let trueHeading, let accuracy):
            holds.append(try Self.checked(.compass, "heading", [magnetic, trueHeading, accuracy]))
        case .released: releases.append(SensorKind.compass.id)
        case .none: break
        }
        switch request.light {
        case .value(let lux): holds.append(try Self.checked(.light, "light", [lux]))
        case .released: releases.append(SensorKind.light.id)
        case .none: break
        }
        switch request.proximity {
        case .value(let near): holds.append(SensorReading(near: near))
        case .released: releases.append(SensorKind.proximity.id)
        case .none: break
        }
        switch request.pressure {
        case .value(let hPa): holds.append(try Self.checked(.pressure, "pressure", [hPa]))
        case .released: releases.append(SensorKind.pressure.id)
        case .none: break
        }
        switch request.rotationRate {
        case .reading(let x, let y, let z): holds.append(try Self.checked(.gyroscope, "rotationRate", [x, y, z]))
        case .released: releases.append(SensorKind.gyroscope.id)
        case .none: break
        }
        guard location != nil || turn != nil || !holds.isEmpty || !releases.isEmpty else {
            throw .invalidParams("give at least one of location, acceleration, orientation, hingeAngle, magneticField, heading, light, proximity, pressure, rotationRate")
        }
        (self.holds, self.releases) = (holds, releases)
    }

    /// A reading of `kind` from its fields' values in order, checked by the kind's own
    /// bounds (the messages a trace line gets), the member named first.
    private static func checked(_ kind: SensorKind, _ member: String, _ values: [Double?]) throws(RPCError) -> SensorReading {
        let value: (Int) throws(RPCError) -> Double? = { values[$0] }
        return try kind.reading(value, fail: { RPCError.invalidParams("\(member): \($0)") })
    }

    /// A fix as `device.set` takes it, checked field by field as a trace's are (one
    /// validator, `LocationFix.problem`); the time is set when it is ingested.
    private static func fix(_ o: Params) throws(RPCError) -> LocationFix {
        let given = try DeviceSet.location(o)
        let fix = LocationFix(
            latitude: given.latitude, longitude: given.longitude, altitude: given.altitude,
            horizontalAccuracy: given.horizontalAccuracy ?? LocationFix.defaultHorizontalAccuracy, verticalAccuracy: given.verticalAccuracy,
            speed: given.speed, course: given.course, time: Timestamp(nanoseconds: 0))
        if let problem = fix.problem { throw .invalidParams("location.\(problem)") }
        return fix
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let time = call.sampleTime ?? hub.now.wall  // set by hand on the device: its wall (C7)
        hub.setSourceState(.manual, .active)
        var taken: JSONValue?
        if var fix = location {
            fix.time = time
            // The flag apps will hear on this fix (N7), so the answer and the event agree.
            fix.simulated = hub.gnss.simulatedFlag.isSimulated(from: .manual, sourceSays: false)
            hub.ingest(Sample(time: time, value: .location(fix)), from: .manual)
            taken = fix.json(accuracy: nil)
        }
        // O4a: a reading set by hand is held, not sent once, until it is released.
        for kind in releases { hub.releaseByHand(kind) }
        for reading in holds { hub.holdByHand(reading) }
        if let turn { hub.turnByHand(to: turn) }
        return .result(DeviceSetResult(location: taken).json)
    }
}

/// `device.rotationLock`: the system rotation lock (O9, O9a).
struct DeviceRotationLockMethod: RPCMethod {
    static let name = Method.deviceRotationLock
    let enabled: Bool

    init(_ p: Params) throws(RPCError) { enabled = try DeviceRotationLock(p).enabled }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.setRotationLock(enabled)
        return .result(EnabledResult(enabled: call.hub.motion.rotationLock).json)
    }
}

/// `device.set` with `orientation` holds an exact gravity vector (RULES O4a).
enum ManualGravity {
    static func vector(for orientation: DeviceOrientation) -> Acceleration? {
        let g = Acceleration.standardGravity
        switch orientation {
        case .portrait: return Acceleration(x: 0, y: g, z: 0)
        case .portraitUpsideDown: return Acceleration(x: 0, y: -g, z: 0)
        case .landscapeLeft: return Acceleration(x: g, y: 0, z: 0)
        case .landscapeRight: return Acceleration(x: -g, y: 0, z: 0)
        case .faceUp: return Acceleration(x: 0, y: 0, z: g)
        case .faceDown: return Acceleration(x: 0, y: 0, z: -g)
        case .unknown: return nil
        }
    }
}
