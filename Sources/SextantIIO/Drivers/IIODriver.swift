import Logging
import SextantCore

/// What one sensor kind's IIO driver knows: which devices are that sensor (its sysfs
/// channels, its udev properties) and how to read one into the kind's reading.
///
/// The shape is iio-sensor-proxy's (`drv-iio-poll-accel.c`, `drv-iio-poll-light.c`…): a
/// driver a file, each with its own probe, and one table (``IIODrivers/all``) the probe
/// walks in order. The source and the set of sensors in use know drivers only through
/// this protocol, so a kind is added with a file here and a line in the table.
public protocol IIODriver: Sendable, Equatable {
    /// The kind of its readings.
    static var kind: SensorKind { get }

    /// The sensor this device is to this driver, or nil when it is not one. Throws when a
    /// file it needs cannot be read; `warn` hears of values that were skipped.
    static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> Self?

    var device: IIODeviceInfo { get }
    /// Whether it may be the sensor in use for its kind (an accelerometer in a
    /// convertible's keyboard base is known but never used).
    var isUsable: Bool { get }
    /// One reading, every file read afresh.
    func reading() throws(SysfsReadError) -> SensorReading
    /// What the log says of it when it is found.
    var logMetadata: Logger.Metadata { get }
}

extension IIODriver {
    public var isUsable: Bool { true }

    func isSame(as other: any IIODriver) -> Bool { (other as? Self) == self }
}

/// Every IIO driver, in the order a device is probed. One line a kind.
public enum IIODrivers {
    public static let all: [any IIODriver.Type] = [
        IIOAccelerometer.self,
        IIOHinge.self,
        IIOMagnetometer.self,
        IIOCompass.self,
        IIOLight.self,
        IIOProximity.self,
        IIOPressure.self,
        IIOGyroscope.self,
    ]
}

/// A sensor the source can poll: a device as its driver found it.
public struct IIOSensor: Sendable, Equatable {
    public let driver: any IIODriver

    public init(_ driver: any IIODriver) { self.driver = driver }

    public var device: IIODeviceInfo { driver.device }

    /// The kind of its readings.
    public var sensorKind: SensorKind { type(of: driver).kind }

    /// `accel` or `hinge`, as `status` shows it: the kind's name.
    public var kind: String { sensorKind.name }

    /// `magnet iio:device2`: the sensor among those of its device, for its warnings.
    var key: String { "\(kind) \(device.sysname)" }

    public func read() throws(SysfsReadError) -> SampleValue { .reading(try driver.reading()) }

    var logMetadata: Logger.Metadata { driver.logMetadata }

    public static func == (a: IIOSensor, b: IIOSensor) -> Bool { a.driver.isSame(as: b.driver) }
}
