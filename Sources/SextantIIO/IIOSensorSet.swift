/// The IIO sensors known at one moment, and which of them are in use.
///
/// A device may be several sensors, one a kind (a HID `magn_3d` is a magnetometer and a
/// compass). One sensor of each kind is used at a time: the first usable one in device
/// order (`iio:device2` before `iio:device10`; an accelerometer in a convertible's keyboard
/// base is known but never usable). When the sensor in use goes away, the next one takes
/// over. Kinds come in the order of ``IIODrivers/all``.
public struct IIOSensorSet: Sendable {
    /// The sensors each device is, by its sysname.
    public private(set) var devices: [String: [IIOSensor]] = [:]

    public init() {}

    /// Every sensor known.
    public var sensors: [IIOSensor] { devices.values.flatMap { $0 } }

    /// Makes `sysname` the sensors `found` (none: forgets it); true when that changed anything.
    @discardableResult
    public mutating func set(_ sysname: String, to found: [IIOSensor]) -> Bool {
        guard (devices[sysname] ?? []) != found else { return false }
        devices[sysname] = found.isEmpty ? nil : found
        return true
    }

    /// Adds a sensor, or replaces its device's sensor of the same kind; true when that
    /// changed anything.
    @discardableResult
    public mutating func insert(_ sensor: IIOSensor) -> Bool {
        let sysname = sensor.device.sysname
        var found = devices[sysname] ?? []
        if let index = found.firstIndex(where: { $0.sensorKind.id == sensor.sensorKind.id }) {
            found[index] = sensor
        } else {
            found.append(sensor)
        }
        return set(sysname, to: found)
    }

    /// Forgets a device; the sensors it was, if any.
    @discardableResult
    public mutating func remove(_ sysname: String) -> [IIOSensor] { devices.removeValue(forKey: sysname) ?? [] }

    /// The sensors to poll, one a kind, in the drivers' order.
    public var inUse: [IIOSensor] {
        let ordered = sensors.sorted { IIOSensorSet.deviceOrder($0.device.sysname, $1.device.sysname) }
        return IIODrivers.all.compactMap { driver in
            ordered.first { $0.sensorKind.id == driver.kind.id && $0.driver.isUsable }
        }
    }

    /// What `status` shows for the `iio` source: `accel iio:device0, hinge iio:device1`, or
    /// `no sensors`.
    public var summary: String {
        let used = inUse
        guard !used.isEmpty else { return "no sensors" }
        return used.map { "\($0.kind) \($0.device.sysname)" }.joined(separator: ", ")
    }

    /// Names in natural order: the same prefix, then the trailing number by value.
    public static func deviceOrder(_ a: String, _ b: String) -> Bool {
        func split(_ s: String) -> (Substring, Int?) {
            let digits = s.reversed().prefix { $0.isASCII && $0.isNumber }.count
            return (s.dropLast(digits), Int(s.suffix(digits)))
        }
        let (pa, na) = split(a), (pb, nb) = split(b)
        if pa != pb || na == nil || nb == nil { return a < b }
        return na! < nb!
    }
}

extension [IIOSensor] {
    /// `magnet and compass`, for the log.
    var kinds: String { map(\.kind).joined(separator: " and ") }
}
