/// The IIO sensors known at one moment, and which of them are in use.
///
/// One sensor of each kind is used at a time: the first usable one in device order
/// (`iio:device2` before `iio:device10`; an accelerometer in a convertible's keyboard base
/// is known but never usable). When the sensor in use goes away, the next one takes over.
/// Kinds come in the order of ``IIODrivers/all``.
public struct IIOSensorSet: Sendable {
    public private(set) var sensors: [String: IIOSensor] = [:]

    public init() {}

    /// Adds or replaces a sensor; true when that changed anything.
    @discardableResult
    public mutating func insert(_ sensor: IIOSensor) -> Bool {
        let sysname = sensor.device.sysname
        guard sensors[sysname] != sensor else { return false }
        sensors[sysname] = sensor
        return true
    }

    /// Forgets a device; the sensor it was, if it was one.
    @discardableResult
    public mutating func remove(_ sysname: String) -> IIOSensor? { sensors.removeValue(forKey: sysname) }

    /// The sensors to poll, one a kind, in the drivers' order.
    public var inUse: [IIOSensor] {
        let ordered = sensors.values.sorted { IIOSensorSet.deviceOrder($0.device.sysname, $1.device.sysname) }
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
