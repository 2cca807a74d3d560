import SextantCore
import SextantProtocol

/// `device.set`: values set by hand — a fix, a held acceleration or orientation, a held
/// hinge angle (O4a) — as samples of the manual source, stamped with the wall clock.
struct DeviceSetMethod: RPCMethod {
    static let name = Method.deviceSet
    let location: LocationFix?
    let acceleration: Acceleration?
    let releasesAcceleration: Bool
    let hingeAngle: Double?
    let releasesHinge: Bool

    init(_ p: Params) throws(RPCError) {
        location = try p.object("location").map { (o) throws(RPCError) in try Self.fix(o) }
        var held: Acceleration?
        if case .some(.null) = p.members["acceleration"] {
            releasesAcceleration = true
        } else {
            releasesAcceleration = false
            if let a = try p.object("acceleration") {
                guard let x = try a.number("x"), let y = try a.number("y"), let z = try a.number("z") else {
                    throw .invalidParams("\"acceleration\" needs x, y and z")
                }
                if let problem = Acceleration.problem(x: x, y: y, z: z) { throw .invalidParams("acceleration: \(problem)") }
                held = Acceleration(x: x, y: y, z: z)
            }
        }
        if let orientation = try p.name("orientation", as: DeviceOrientation.self) {
            guard let gravity = ManualGravity.vector(for: orientation) else {
                throw .invalidParams("\"orientation\" must be an upright orientation, faceUp or faceDown")
            }
            held = gravity
        }
        acceleration = held
        hingeAngle = try p.number("hingeAngle")
        releasesHinge = p.members["hingeAngle"] == .null
        if let hingeAngle { guard (0...180).contains(hingeAngle) else { throw .invalidParams("\"hingeAngle\" must be within 0...180") } }
        guard location != nil || acceleration != nil || releasesAcceleration || hingeAngle != nil || releasesHinge else {
            throw .invalidParams("give at least one of location, acceleration, orientation, hingeAngle")
        }
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
        let time = call.sampleTime ?? hub.clock.wallTime()
        hub.setSourceState(.manual, .active)
        var taken: JSONValue?
        if var fix = location {
            fix.time = time
            hub.ingest(Sample(time: time, value: .location(fix)), from: .manual)
            taken = fix.json(accuracy: nil)
        }
        // O4a: a reading set by hand is held, not sent once, until it is released.
        if let hingeAngle {
            hub.holdByHand(SensorReading(hingeAngle: hingeAngle))
        } else if releasesHinge {
            hub.releaseByHand(SensorKind.hinge.id)
        }
        if let acceleration {
            hub.holdByHand(acceleration.reading)
        } else if releasesAcceleration {
            hub.releaseByHand(SensorKind.accelerometer.id)
        }
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
