import SextantCore
import SextantProtocol
import SextantStore

/// The device's orientation (RULES O1–O5): the judge decides from each accelerometer
/// reading; a change goes to the sessions that asked (`orientation.start`), to every
/// foreground app's interface (O7) and to the faces; watchers see it when no app hears it.
final class OrientationService: PhoneService {
    static var appMethods: [any RPCMethod.Type] { [SubscriptionMethod<OrientationStart>.self, SubscriptionMethod<OrientationStop>.self] }
    static var consumedKinds: [SensorKind.ID] { [SensorKind.accelerometer.id] }

    private unowned let hub: Hub

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    /// One accelerometer reading its arbiter let through (RULES O1–O5).
    func reading(_ sample: SensorReading, at time: Timestamp, from source: SourceName) {
        guard let reading = Acceleration(sample) else { return }
        guard let change = hub.motion.judgeAcceleration(reading, at: time) else { return }
        hub.logger.debug("device orientation", metadata: ["orientation": "\(change.orientation.rawValue)", "previous": "\(change.previous.rawValue)"])
        let conditions = hub.interfaceConditions
        let event = SharedEvent(DeviceOrientationEvent(change: change))
        for session in hub.sessions.ordered {
            if session.hears(.orientation) { hub.publish(to: session, event) }
            // O7: each foreground app follows, in the same turn, after the device event.
            hub.publishInterface(session.interface.deviceChanged(conditions, state: hub.appState(of: session)), to: session)
        }
        if !hub.sessions.isHeard(.orientation) {
            hub.broadcastToWatchers(Event.deviceOrientation, change.json, kind: .sensor)
        }
        hub.observed(DeviceOrientationChanged(orientation: change.orientation))
    }
}

/// The orientation judge decided (RULES O1–O5), whatever its source and whoever listens.
package struct DeviceOrientationChanged: DeviceChange {
    package let orientation: DeviceOrientation
}

struct DeviceOrientationEvent: AppEventKind {
    let change: DeviceOrientationChange
    static var topic: AppTopic { .orientation }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.deviceOrientation }
    var params: JSONValue { change.json }
}

struct InterfaceOrientationEvent: AppEventKind {
    let change: InterfaceOrientationChange
    static var topic: AppTopic { .orientation }
    var outboundKind: OutboundKind { .essential }
    var method: String { Event.interfaceOrientation }
    var params: JSONValue { change.json }
}

extension DeviceOrientationChange {
    /// The `deviceOrientation` event's params.
    var json: JSONValue {
        ["orientation": .string(orientation.rawValue), "previous": .string(previous.rawValue), "time": .string(time.rfc3339)]
    }
}

extension OrientationStart: TopicSwitch {
    static var topic: AppTopic { .orientation }
    static var on: Bool { true }
}

extension OrientationStop: TopicSwitch {
    static var topic: AppTopic { .orientation }
    static var on: Bool { false }
}
