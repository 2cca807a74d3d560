import Logging
import NIOCore
import SextantCore
import SextantDBus
import SextantHub
import SextantProtocol

/// iio-sensor-proxy's face (`net.hadess.SensorProxy` at `/net/hadess/SensorProxy`, the
/// interface of iio-sensor-proxy 3.0): the screen's orientation as the judge decides it
/// (RULES O1–O5), whatever its source — live IIO, a replay, `sextantctl rotate`.
///
/// - `AccelerometerOrientation` follows each decision, mapped by ``SensorProxyOrientation``;
///   PropertiesChanged goes out on every change.
/// - The Compass (`/net/hadess/SensorProxy/Compass`): `CompassHeading` is each magnetic
///   heading the heading engine decides (RULES H1–H5), whatever its source, in the device's
///   natural orientation as iio-sensor-proxy's, to 0.01°; -1 before the first.
///   PropertiesChanged goes out on every change.
/// - Claims of the accelerometer and of the compass are counted per sender, freed when it
///   releases or leaves the bus. They decide nothing: Sextant reads its sensors whether or
///   not anyone listens (see `LiveSource`), so the properties are current before the first
///   claim.
/// - The ambient light and the proximity sensor (RULES E4): `HasAmbientLight` and
///   `HasProximity` turn true at the first reading of the sensor from any source (live IIO,
///   a replay, `sextantctl light`/`proximity`); `LightLevel` (lux, `LightLevelUnit` "lux")
///   and `ProximityNear` follow the readings only while a client claims the sensor, as
///   iio-sensor-proxy polls it only then, and keep their last value after the last release.
final class SensorProxyFace: DBusFace {
    static let busName = "net.hadess.SensorProxy"
    static let path = "/net/hadess/SensorProxy"
    static let interface = "net.hadess.SensorProxy"
    static let compassPath = "/net/hadess/SensorProxy/Compass"
    static let compassInterface = "net.hadess.SensorProxy.Compass"

    let busNames = [SensorProxyFace.busName]
    let handle: HubHandle
    /// Only on the hub's loop.
    var hub: Hub { handle.hub }
    let object: DBusObject
    let compass: DBusObject
    private let claims: SensorProxyClaims
    /// The orientation shown while the device lies flat; on the hub's loop.
    private let mapping: NIOLoopBoundBox<SensorProxyOrientation>

    init(hub: HubHandle, logger: Logger) {
        self.handle = hub
        mapping = .makeBoxSendingValue(SensorProxyOrientation(), eventLoop: handle.eventLoop)
        claims = SensorProxyClaims(hub: hub, logger: logger)
        object = DBusObject(path: Self.path, interfaces: [Self.sensorProxyInterface(claims)])
        compass = DBusObject(path: Self.compassPath, interfaces: [Self.compassTable(claims)])
        object.set(Self.interface, "HasAccelerometer", .bool(true))
        object.set(Self.interface, "AccelerometerOrientation", .string(SensorProxyOrientation.undefined))
        object.set(Self.interface, "HasAmbientLight", .bool(false))
        object.set(Self.interface, "LightLevelUnit", .string("lux"))
        object.set(Self.interface, "LightLevel", .double(0))
        object.set(Self.interface, "HasProximity", .bool(false))
        object.set(Self.interface, "ProximityNear", .bool(false))
        compass.set(Self.compassInterface, "HasCompass", .bool(true))
        compass.set(Self.compassInterface, "CompassHeading", .double(Self.unknownHeading))
        hub.execute { [self] hub in
            mapping.value = SensorProxyOrientation(lastUpright: hub.lastUprightOrientation)
            show(hub.deviceOrientation)
            if let latest = hub.latestHeading { show(latest) }
            for sensor in EnvironmentSensor.allCases where hub.hasEnvironmentSensor(sensor) { show(.appeared(sensor)) }
            hub.register(self)
            claims.publish()
        }
    }

    /// On the hub's loop: the judge decided an orientation, or the heading engine a heading.
    func observe(_ change: any DeviceChange) {
        if let change = change as? DeviceOrientationChanged { show(change.orientation) }
        if let change = change as? HeadingDecided { show(change.heading) }
        if let change = change as? EnvironmentChanged { show(change) }
    }

    private func show(_ change: EnvironmentChanged) {
        switch change {
        case .appeared(.light): object.set(Self.interface, "HasAmbientLight", .bool(true))
        case .appeared(.proximity): object.set(Self.interface, "HasProximity", .bool(true))
        case .light(let lux): object.set(Self.interface, "LightLevel", .double(lux))
        case .proximity(let near): object.set(Self.interface, "ProximityNear", .bool(near))
        }
    }

    private func show(_ orientation: DeviceOrientation) {
        object.set(Self.interface, "AccelerometerOrientation", .string(mapping.value.name(for: orientation)))
    }

    /// iio-sensor-proxy's `CompassHeading` before any heading is known.
    static let unknownHeading = -1.0

    /// The magnetic heading in the device's natural orientation, as iio-sensor-proxy
    /// reports its compass's.
    private func show(_ heading: Heading) {
        compass.set(Self.compassInterface, "CompassHeading", .double(Heading.hundredths(heading.magnetic)))
    }

    func connected(_ connection: DBusConnection) {
        connection.export(object)
        connection.export(compass)
    }

    func peerLeft(_ uniqueName: String) { claims.senderLeft(uniqueName) }

    func disconnected() { claims.releaseAll() }

    /// net.hadess.SensorProxy as iio-sensor-proxy 3.0 declares it.
    private static func sensorProxyInterface(_ claims: SensorProxyClaims) -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                DBusMethod("ClaimAccelerometer") { call in claims.claim(.accelerometer, call, true) },
                DBusMethod("ReleaseAccelerometer") { call in claims.claim(.accelerometer, call, false) },
                DBusMethod("ClaimLight") { call in claims.claim(.light, call, true) },
                DBusMethod("ReleaseLight") { call in claims.claim(.light, call, false) },
                DBusMethod("ClaimProximity") { call in claims.claim(.proximity, call, true) },
                DBusMethod("ReleaseProximity") { call in claims.claim(.proximity, call, false) },
            ],
            properties: [
                DBusProperty("HasAccelerometer", "b"), DBusProperty("AccelerometerOrientation", "s"),
                DBusProperty("HasAmbientLight", "b"), DBusProperty("LightLevelUnit", "s"), DBusProperty("LightLevel", "d"),
                DBusProperty("HasProximity", "b"), DBusProperty("ProximityNear", "b"),
            ])
    }

    /// net.hadess.SensorProxy.Compass as iio-sensor-proxy 3.0 declares it.
    private static func compassTable(_ claims: SensorProxyClaims) -> DBusInterface {
        DBusInterface(
            compassInterface,
            methods: [
                DBusMethod("ClaimCompass") { call in claims.claim(.compass, call, true) },
                DBusMethod("ReleaseCompass") { call in claims.claim(.compass, call, false) },
            ],
            properties: [DBusProperty("HasCompass", "b"), DBusProperty("CompassHeading", "d")])
    }
}

/// The senders that claimed each sensor, counted per sender; on the hub's loop.
final class SensorProxyClaims: Sendable {
    /// A sensor a client claims; its raw value names its count in `status`.
    enum Sensor: String, CaseIterable, Sendable {
        case accelerometer = "accelerometerClaims"
        case compass = "compassClaims"
        case light = "lightClaims"
        case proximity = "proximityClaims"

        /// The environment sensor whose readings the face hears only while claimed.
        var environment: EnvironmentSensor? {
            switch self {
            case .light: .light
            case .proximity: .proximity
            case .accelerometer, .compass: nil
            }
        }
    }

    let handle: HubHandle
    /// Only on the hub's loop.
    var hub: Hub { handle.hub }
    private let logger: Logger
    private let senders: NIOLoopBoundBox<[Sensor: Set<String>]>

    init(hub: HubHandle, logger: Logger) {
        self.handle = hub
        self.logger = logger
        senders = .makeBoxSendingValue([:], eventLoop: handle.eventLoop)
    }

    /// Claim or Release of `sensor` (bus thread): answered once counted.
    func claim(_ sensor: Sensor, _ call: any DBusCall, _ claiming: Bool) {
        handle.eventLoop.execute { [self] in
            if claiming { senders.value[sensor, default: []].insert(call.sender) } else { senders.value[sensor]?.remove(call.sender) }
            publish()
            call.reply([])
        }
    }

    func senderLeft(_ uniqueName: String) {
        handle.eventLoop.execute { [self] in
            var released = false
            for sensor in Sensor.allCases { released = senders.value[sensor]?.remove(uniqueName) != nil || released }
            guard released else { return }
            logger.debug("iio-sensor-proxy face: a client left the bus; its claims are released", metadata: ["sender": "\(uniqueName)"])
            publish()
        }
    }

    func releaseAll() {
        handle.eventLoop.execute { [self] in
            senders.value.removeAll()
            publish()
        }
    }

    /// `status`'s `dbus.faces.sensorProxy`; the hub hears the light and the proximity sensor
    /// for the face while some sender claims them.
    func publish() {
        for sensor in Sensor.allCases {
            if let environment = sensor.environment { hub.faceHearsEnvironment(environment, senders.value[sensor]?.isEmpty == false) }
        }
        var counts: [String: JSONValue] = [:]
        for sensor in Sensor.allCases { counts[sensor.rawValue] = .int(Int64(senders.value[sensor]?.count ?? 0)) }
        hub.face(DBusStatusFace.self)?.setStatus(of: "sensorProxy", .object(counts))
    }
}

/// Sextant's device orientation in iio-sensor-proxy's words. iio-sensor-proxy names the
/// side of the screen that points up: `normal` (portrait), `bottom-up` (upside down),
/// `left-up` (our `landscapeRight`, RULES' IIO note), `right-up` (our `landscapeLeft`).
/// It has no flat state: lying face up or down, it keeps the orientation it had, and so
/// does this mapping (the last upright one; `undefined` before any).
struct SensorProxyOrientation: Sendable {
    static let undefined = "undefined"
    private(set) var lastUpright: DeviceOrientation?

    init(lastUpright: DeviceOrientation? = nil) { self.lastUpright = lastUpright }

    mutating func name(for orientation: DeviceOrientation) -> String {
        if orientation.isUpright { lastUpright = orientation }
        switch orientation {
        case .portrait: return "normal"
        case .portraitUpsideDown: return "bottom-up"
        case .landscapeRight: return "left-up"
        case .landscapeLeft: return "right-up"
        case .faceUp, .faceDown: return lastUpright.map { Self.uprightName($0) } ?? Self.undefined
        case .unknown: return Self.undefined
        }
    }

    private static func uprightName(_ orientation: DeviceOrientation) -> String {
        var copy = SensorProxyOrientation()
        return orientation.isUpright ? copy.name(for: orientation) : undefined
    }
}

extension SensorProxyFace: Face {}
