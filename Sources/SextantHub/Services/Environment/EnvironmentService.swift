import SextantCore
import SextantProtocol
import SextantStore

/// The ambient light and proximity sensors (RULES E1–E4, sextant-rules(7) "LIGHT AND
/// PROXIMITY"): each reading its arbiter let through reaches the apps that asked
/// (`light.start`, `proximity.start`) on change, the iio-sensor-proxy face while a client
/// claims the sensor, and watchers. Without any of them, a reading is noted for `status`
/// and nothing more: no change is looked for and nothing is encoded.
final class EnvironmentService: PhoneService {
    static var appMethods: [any RPCMethod.Type] {
        [StreamStartMethod<LightStream>.self, StreamStopMethod<LightStream>.self, StreamStartMethod<ProximityStream>.self, StreamStopMethod<ProximityStream>.self]
    }
    static var consumedKinds: [SensorKind.ID] { [SensorKind.light.id, SensorKind.proximity.id] }

    private unowned let hub: Hub
    let light: EnvironmentChannel<Double>
    let proximity: EnvironmentChannel<Bool>

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        light = EnvironmentChannel(
            sensor: .light, event: { SharedEvent(LightEvent(light: WireLight(lux: $0, time: $1))) },
            watched: { WireLight(lux: $0, time: $1).json }, change: { .light($0) })
        proximity = EnvironmentChannel(
            sensor: .proximity, event: { SharedEvent(ProximityEvent(proximity: WireProximity(near: $0, time: $1))) },
            watched: { WireProximity(near: $0, time: $1).json }, change: { .proximity($0) })
    }

    func channel(_ sensor: EnvironmentSensor) -> any EnvironmentChannelControl {
        switch sensor {
        case .light: light
        case .proximity: proximity
        }
    }

    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        if let lux = reading.lux {
            light.take(lux, at: time, hub: hub)
        } else if let near = reading.isNear {
            proximity.take(near, at: time, hub: hub)
        }
    }

    func sessionClosed(_ session: AppSession) {
        light.subscribers.remove(session)
        proximity.subscribers.remove(session)
    }

    /// A value held by hand was let go of: `status` shows the next reading, none until then.
    func releasedByHand(_ kind: SensorKind.ID) {
        if kind == SensorKind.light.id { light.forgetLatest() }
        if kind == SensorKind.proximity.id { proximity.forgetLatest() }
    }

    /// `light` {`lux`, `time`} and `proximity` {`near`, `time`}: the latest reading, or null.
    var statusMembers: [String: JSONValue] {
        ["light": light.latestJSON, "proximity": proximity.latestJSON]
    }
}

/// The environment sensors a face may ask about.
package enum EnvironmentSensor: Sendable, CaseIterable {
    case light, proximity

    /// Its event's name on app.sock and in `watch`.
    var event: String {
        switch self {
        case .light: Event.light
        case .proximity: Event.proximity
        }
    }
}

/// What the iio-sensor-proxy face shows of the environment sensors (``Face/observe(_:)``):
/// a sensor appeared (its first reading from any source), or a value it hears changed.
package enum EnvironmentChanged: DeviceChange {
    case appeared(EnvironmentSensor)
    case light(Double)
    case proximity(Bool)
}

/// One sensor's state: whether a source ever gave a reading (iio-sensor-proxy's `Has…`),
/// the latest reading, and who hears it — the apps that asked, the face while it claims it,
/// the watchers.
final class EnvironmentChannel<Value: Equatable & Sendable>: EnvironmentChannelControl, SubscriberKeeper {
    let sensor: EnvironmentSensor
    private(set) var isPresent = false
    private(set) var latest: (value: Value, time: Timestamp)?
    private(set) var faceHears = false
    var subscribers = Subscribers<EnvironmentSubscription<Value>>()
    private var faceStream = OnChangeStream<Value>()
    private var watchStream = OnChangeStream<Value>()
    private let event: (Value, Timestamp) -> SharedEvent
    private let watched: (Value, Timestamp) -> JSONValue
    private let change: (Value) -> EnvironmentChanged

    init(
        sensor: EnvironmentSensor, event: @escaping (Value, Timestamp) -> SharedEvent, watched: @escaping (Value, Timestamp) -> JSONValue,
        change: @escaping (Value) -> EnvironmentChanged
    ) {
        (self.sensor, self.event, self.watched, self.change) = (sensor, event, watched, change)
    }

    /// One reading: noted; then, only if someone hears, sent where it changed something.
    func take(_ value: Value, at time: Timestamp, hub: Hub) {
        latest = (value, time)
        if !isPresent {
            isPresent = true
            hub.observed(EnvironmentChanged.appeared(sensor))
        }
        guard faceHears || !subscribers.isEmpty || hub.watchersWant(sensor.event) else { return }
        if faceHears, faceStream.admits(value) { hub.observed(change(value)) }
        var shared: SharedEvent?
        var heard = false
        let stream: MotionStream = sensor.event == Event.light ? .light : .proximity
        for (session, subscription) in subscribers.entries {
            heard = true
            // E3: the foreground, or what the platform delivers in the background (AN40, I15).
            guard hub.mayHearMotion(session, stream) else {
                subscription.stream.reset()
                continue
            }
            guard subscription.stream.admits(value) else { continue }
            let made = shared ?? event(value, time)
            shared = made
            hub.publish(to: session, made)
        }
        if !heard, watchStream.admits(value) {
            hub.broadcastToWatchers(sensor.event, watched(value, time), kind: .sensor)
        }
    }

    /// The face claims the sensor or lets it go; a claim shows the latest value at once.
    func setFaceHears(_ hears: Bool, hub: Hub) {
        guard hears != faceHears else { return }
        faceHears = hears
        faceStream.reset()
        if hears, let latest, faceStream.admits(latest.value) { hub.observed(change(latest.value)) }
    }

    func forgetLatest() { latest = nil }

    var latestJSON: JSONValue { latest.map { watched($0.value, $0.time) } ?? .null }

    var latestValue: Value? { latest?.value }
}

extension Hub {
    /// Whether a watcher would see `method` sent to no app (a `watch` of other topics, such
    /// as `sextantctl replay start --wait`'s, is no listener).
    func watchersWant(_ method: String) -> Bool {
        !watchers.isEmpty && watchers.all.contains { $0.filter.admits(method, deliveredTo: nil) }
    }
}

/// A channel as the methods and the face reach it, whatever its value's type.
protocol EnvironmentChannelControl: AnyObject {
    var isPresent: Bool { get }
    func setFaceHears(_ hears: Bool, hub: Hub)
}

/// A session's `light.start` or `proximity.start`: the last value sent to it (E2).
final class EnvironmentSubscription<Value: Equatable & Sendable>: FreshSubscription {
    var stream = OnChangeStream<Value>()
}
