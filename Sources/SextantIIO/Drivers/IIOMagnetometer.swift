import Logging
import SextantCore

/// An IIO magnetometer (`in_magn_{x,y,z}_raw`: AK8975 and its kin on phones and tablets,
/// the HID sensor hub's `magn_3d` on laptops) and how its readings become µT in Sextant's
/// device frame.
public struct IIOMagnetometer: IIODriver {
    public static let kind = SensorKind.magnetometer

    public var device: IIODeviceInfo
    public var x: IIOChannel
    public var y: IIOChannel
    public var z: IIOChannel
    public var mountMatrix: IIOMountMatrix
    /// Where the matrix came from, for the log: `mount_matrix`, `in_magn_mount_matrix` or
    /// `identity`.
    public var mountMatrixOrigin: String

    public init(device: IIODeviceInfo, x: IIOChannel, y: IIOChannel, z: IIOChannel, mountMatrix: IIOMountMatrix, mountMatrixOrigin: String) {
        self.device = device
        self.x = x
        self.y = y
        self.z = z
        self.mountMatrix = mountMatrix
        self.mountMatrixOrigin = mountMatrixOrigin
    }

    /// The IIO ABI gives the magnetic field in gauss after offset and scale
    /// (Documentation/ABI/testing/sysfs-bus-iio, `in_magn_x_raw`); 1 G = 100 µT.
    public static let microteslaPerGauss = 100.0

    /// A device with `in_magn_x_raw`, `in_magn_y_raw` and `in_magn_z_raw`.
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOMagnetometer? {
        let axes = ["x", "y", "z"]
        guard axes.allSatisfy({ SysfsAttribute.exists(device.path("in_magn_\($0)_raw")) }) else { return nil }
        var channels: [IIOChannel] = []
        for axis in axes {
            // The axis's own scale and offset (AK8975's per-axis sensitivity), else the shared ones.
            let scale = try IIOProbe.firstNumber(device, ["in_magn_\(axis)_scale", "in_magn_scale"]) ?? 1
            let offset = try IIOProbe.firstNumber(device, ["in_magn_\(axis)_offset", "in_magn_offset"]) ?? 0
            channels.append(IIOChannel(rawPath: device.path("in_magn_\(axis)_raw"), scale: scale, offset: offset))
        }
        // No udev property: hwdb has mount matrices for accelerometers only.
        let (matrix, origin) = try IIOMountMatrix.find(device, property: nil, attributes: ["mount_matrix", "in_magn_mount_matrix"], warn: warn)
        return IIOMagnetometer(device: device, x: channels[0], y: channels[1], z: channels[2], mountMatrix: matrix, mountMatrixOrigin: origin)
    }

    /// The field in the device's axes, `M × v` in µT. Unlike the accelerometer's, nothing is
    /// negated: a field has no sign convention to undo (sextantd(8), IIO SENSORS).
    public static func deviceFrame(gauss v: (x: Double, y: Double, z: Double), mountMatrix: IIOMountMatrix) -> MagneticField {
        let s = mountMatrix.applied(to: v)
        return MagneticField(x: s.x * microteslaPerGauss, y: s.y * microteslaPerGauss, z: s.z * microteslaPerGauss)
    }

    /// One reading, every file read afresh.
    public func read() throws(SysfsReadError) -> MagneticField {
        Self.deviceFrame(gauss: (x: try x.read(), y: try y.read(), z: try z.read()), mountMatrix: mountMatrix)
    }

    public func reading() throws(SysfsReadError) -> SensorReading { try read().reading }

    public var logMetadata: Logger.Metadata {
        [
            "path": "\(device.syspath)",
            "scale": "\([x.scale, y.scale, z.scale].map { "\($0)" }.joined(separator: ",")) (gauss)",
            "mount matrix": "\(mountMatrix) (\(mountMatrixOrigin))",
        ]
    }
}
