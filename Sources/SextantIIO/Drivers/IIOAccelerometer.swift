import Logging
import SextantCore

/// An IIO accelerometer (`in_accel_{x,y,z}_raw`) and how its readings become Sextant's
/// device frame.
public struct IIOAccelerometer: IIODriver {
    public static let kind = SensorKind.accelerometer

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

    /// A device with `in_accel_x_raw`, `in_accel_y_raw` and `in_accel_z_raw`.
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOAccelerometer? {
        let axes = ["x", "y", "z"]
        guard axes.allSatisfy({ SysfsAttribute.exists(device.path("in_accel_\($0)_raw")) }) else { return nil }
        var channels: [IIOChannel] = []
        for axis in axes {
            // Scale: shared by the three axes, else one per axis, else the device's, else 1.
            let scale = try IIOProbe.firstNumber(device, ["in_accel_scale", "in_accel_\(axis)_scale", "scale"]) ?? 1
            let offset = try IIOProbe.firstNumber(device, ["in_accel_\(axis)_offset", "in_accel_offset"]) ?? 0
            channels.append(IIOChannel(rawPath: device.path("in_accel_\(axis)_raw"), scale: scale, offset: offset))
        }
        let (matrix, origin) = try mountMatrix(device, warn: warn)
        var location = device.properties["ACCEL_LOCATION"]
        if location == nil { location = try SysfsAttribute.optionalText(at: device.path("location")) }
        return IIOAccelerometer(
            device: device, x: channels[0], y: channels[1], z: channels[2], mountMatrix: matrix, mountMatrixOrigin: origin,
            location: location)
    }

    /// The first usable matrix of: udev `ACCEL_MOUNT_MATRIX` (hwdb quirks), sysfs
    /// `mount_matrix`, sysfs `in_accel_mount_matrix`; else the identity.
    static func mountMatrix(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> (IIOMountMatrix, String) {
        try IIOMountMatrix.find(device, property: "ACCEL_MOUNT_MATRIX", attributes: ["mount_matrix", "in_accel_mount_matrix"], warn: warn)
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

    public func reading() throws(SysfsReadError) -> SensorReading { try read().reading }

    /// Whether this accelerometer sits in a convertible's keyboard base (udev
    /// `ACCEL_LOCATION`, else sysfs `location`, says `base`): its gravity does not follow the
    /// screen, so it is not used for the device orientation.
    public var isInBase: Bool { location == "base" }

    public var isUsable: Bool { !isInBase }

    public var logMetadata: Logger.Metadata {
        [
            "path": "\(device.syspath)",
            "scale": "\([x.scale, y.scale, z.scale].map { "\($0)" }.joined(separator: ","))",
            "mount matrix": "\(mountMatrix) (\(mountMatrixOrigin))",
            "location": "\(location ?? "unknown")",
        ]
    }
}
