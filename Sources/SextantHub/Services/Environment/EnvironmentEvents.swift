import SextantCore
import SextantProtocol

/// E1: the ambient light in lux, as the sensor reads it. It says how bright it is where the
/// device is, not where that is: not location-derived.
struct LightEvent: AppEventKind {
    let light: WireLight
    static var topic: AppTopic { .light }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.light }
    var params: JSONValue { light.json }
}

/// E1: near or far. Not location-derived.
struct ProximityEvent: AppEventKind {
    let proximity: WireProximity
    static var topic: AppTopic { .proximity }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.proximity }
    var params: JSONValue { proximity.json }
}

/// `light.start` / `.stop`, `proximity.start` / `.stop`: the session hears the sensor's
/// changes from its next reading on (E2), or no more. Starting again starts afresh.
enum LightStream: AppStream {
    typealias StartRequest = LightStart
    typealias StopRequest = LightStop
    static var topic: AppTopic { .light }
    static func keeper(in hub: Hub) -> EnvironmentChannel<Double> { hub.services(EnvironmentService.self).light }
}

enum ProximityStream: AppStream {
    typealias StartRequest = ProximityStart
    typealias StopRequest = ProximityStop
    static var topic: AppTopic { .proximity }
    static func keeper(in hub: Hub) -> EnvironmentChannel<Bool> { hub.services(EnvironmentService.self).proximity }
}

/// What the faces may ask of the environment sensors (as ``Hub`` + Host's operations: the
/// face names no service).
extension Hub {
    /// Whether a source ever gave a reading of `sensor` (iio-sensor-proxy's `HasAmbientLight`, `HasProximity`).
    package func hasEnvironmentSensor(_ sensor: EnvironmentSensor) -> Bool { services(EnvironmentService.self).channel(sensor).isPresent }

    /// The latest illuminance in lux, and whether something is near; nil before any reading.
    package var latestLux: Double? { services(EnvironmentService.self).light.latestValue }
    package var latestProximityNear: Bool? { services(EnvironmentService.self).proximity.latestValue }

    /// A face's clients claim `sensor` (true) or none does any more: while claimed, each
    /// change reaches the faces as ``EnvironmentChanged``; a claim shows the latest at once.
    package func faceHearsEnvironment(_ sensor: EnvironmentSensor, _ hears: Bool) {
        services(EnvironmentService.self).channel(sensor).setFaceHears(hears, hub: self)
    }
}
