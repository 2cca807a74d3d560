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
    public static let propertyNames = ["ACCEL_MOUNT_MATRIX", "ACCEL_LOCATION"]

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

/// An IIO accelerometer (`in_accel_{x,y,z}_raw`) and how its readings become Sextant's
/// device frame.
public struct IIOAccelerometer: Sendable, Equatable {
    public var device: IIODeviceInfo
    public var x: IIOChannel
    public var y: IIOChannel
    public var z: IIOChannel
    public var mountMatrix: IIOMountMatrix
    /// Where the matrix came from, for the log: `ACCEL_MOUNT_MATRIX`, `mount_matrix`,
    /// `in_accel_mount_matrix` or `identity`.
    public var mountMatrixOrigin: String
    /// `display`, `lid` or `base` (udev `ACCEL_LOCATION`, else sysfs `location`), when known.
    public var location: String?

    public init(
        device: IIODeviceInfo, x: IIOChannel, y: IIOChannel, z: IIOChannel, mountMatrix: IIOMountMatrix, mountMatrixOrigin: String,
        location: String? = nil
    ) {
        self.device = device
        self.x = x
        self.y = y
        self.z = z
        self.mountMatrix = mountMatrix
        self.mountMatrixOrigin = mountMatrixOrigin
        self.location = location
    }

    /// RULES "Device orientation": the reading as iio-sensor-proxy takes it is
    /// `s = M × ((raw + offset) × scale)` per axis, in m/s², and reads upright portrait as
    /// `s.y ≈ -9.81`; Sextant's device frame reads it `+9.81`, so the sample is `-s`.
    public static func deviceFrame(sensor v: (x: Double, y: Double, z: Double), mountMatrix: IIOMountMatrix) -> Acceleration {
        let s = mountMatrix.applied(to: v)
        return Acceleration(x: -s.x, y: -s.y, z: -s.z)
    }

    /// One reading, every file read afresh.
    public func read() throws(SysfsReadError) -> Acceleration {
        let v = (x: try x.read(), y: try y.read(), z: try z.read())
        return Self.deviceFrame(sensor: v, mountMatrix: mountMatrix)
    }

    /// Whether this accelerometer sits in a convertible's keyboard base (udev
    /// `ACCEL_LOCATION`, else sysfs `location`, says `base`): its gravity does not follow the
    /// screen, so it is not used for the device orientation.
    public var isInBase: Bool { location == "base" }
}

/// A hinge angle sensor: the HID custom hinge sensor (Linux `hid-sensor-custom-intel-hinge`,
/// device name `hinge`, channels `in_angl0_raw`… labelled `hinge`, `keyboard`, `screen`) or
/// ChromeOS's lid angle (`cros-ec-lid-angle`, `in_angl_raw`).
public struct IIOHinge: Sendable, Equatable {
    public var device: IIODeviceInfo
    public var channel: IIOChannel
    /// True when the channel has a scale: the IIO ABI gives angles in radians after scaling
    /// (the HID hinge's scale is π/180). Without one (cros-ec-lid-angle) the raw value is in
    /// degrees already.
    public var scaledToRadians: Bool

    public init(device: IIODeviceInfo, channel: IIOChannel, scaledToRadians: Bool) {
        self.device = device
        self.channel = channel
        self.scaledToRadians = scaledToRadians
    }

    /// Degrees, limited to RULES P1's 0 (closed) to 180 (flat): a convertible folded back
    /// past flat (tent, tablet) reads over 180 and counts as flat.
    public static func degrees(_ value: Double, scaledToRadians: Bool) -> Double {
        let degrees = scaledToRadians ? value * 180 / Double.pi : value
        return min(max(degrees, 0), 180)
    }

    public func read() throws(SysfsReadError) -> Double {
        Self.degrees(try channel.read(), scaledToRadians: scaledToRadians)
    }
}

/// A sensor the source can poll.
public enum IIOSensor: Sendable, Equatable {
    case accelerometer(IIOAccelerometer)
    case hinge(IIOHinge)

    public var device: IIODeviceInfo {
        switch self {
        case .accelerometer(let a): return a.device
        case .hinge(let h): return h.device
        }
    }

    /// `accel` or `hinge`, as `status` shows it.
    public var kind: String {
        switch self {
        case .accelerometer: return "accel"
        case .hinge: return "hinge"
        }
    }

    public func read() throws(SysfsReadError) -> SampleValue {
        switch self {
        case .accelerometer(let a): return .acceleration(try a.read())
        case .hinge(let h): return .hingeAngle(try h.read())
        }
    }
}
