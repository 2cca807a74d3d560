import SextantCore

/// What the udev database says about one IIO device, gathered where libudev is used so
/// that probing and reading need only these values and the sysfs files.
public struct IIODeviceInfo: Sendable, Equatable {
    /// `iio:device0`.
    public var sysname: String
    /// `/sys/devices/.../iio:device0`: the directory of the attribute files.
    public var syspath: String
    /// The udev properties the source reads (`ACCEL_MOUNT_MATRIX`, `ACCEL_LOCATION`).
    public var properties: [String: String]

    /// The udev properties worth copying out of a device.
    public static let propertyNames = ["ACCEL_MOUNT_MATRIX", "ACCEL_LOCATION", "PROXIMITY_NEAR_LEVEL"]

    public init(sysname: String, syspath: String, properties: [String: String] = [:]) {
        self.sysname = sysname
        self.syspath = syspath
        self.properties = properties
    }

    func path(_ attribute: String) -> String { syspath + "/" + attribute }
}

/// One readable channel: `value = (raw + offset) × scale`, the IIO ABI's conversion
/// (Documentation/ABI/testing/sysfs-bus-iio: the offset is added to the raw value
/// before scaling).
public struct IIOChannel: Sendable, Equatable {
    public var rawPath: String
    public var scale: Double
    public var offset: Double

    public init(rawPath: String, scale: Double, offset: Double = 0) {
        self.rawPath = rawPath
        self.scale = scale
        self.offset = offset
    }

    public func convert(_ raw: Double) -> Double { (raw + offset) * scale }

    func read() throws(SysfsReadError) -> Double { convert(try SysfsAttribute.number(at: rawPath)) }
}
