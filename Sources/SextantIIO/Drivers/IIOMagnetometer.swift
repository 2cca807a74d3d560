import Logging
import SextantCore

/// An IIO magnetometer (`in_magn_{x,y,z}_raw`: AK8975 and its kin on phones and tablets,
/// the HID sensor hub's `magn_3d` on laptops) and how its readings become µT in Sextant's
/// device frame.
public struct IIOMagnetometer: IIODriver {
    public static let kind = SensorKind.magnetometer

    public var device: IIODeviceInfo
    /// Its matrix from `mount_matrix`, `in_magn_mount_matrix` or `identity`.
    public var axes: IIOAxes

    public init(device: IIODeviceInfo, axes: IIOAxes) {
        (self.device, self.axes) = (device, axes)
    }

    public var mountMatrixOrigin: String { axes.mountMatrixOrigin }

    /// The IIO ABI gives the magnetic field in gauss after offset and scale
    /// (Documentation/ABI/testing/sysfs-bus-iio, `in_magn_x_raw`); 1 G = 100 µT.
    public static let microteslaPerGauss = 100.0

    /// A device with `in_magn_x_raw`, `in_magn_y_raw` and `in_magn_z_raw`.
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOMagnetometer? {
        // The axis's own scale (AK8975's per-axis sensitivity), else the shared one. No udev
        // property: hwdb has mount matrices for accelerometers only.
        let axes = try IIOAxes.probe(
            device, type: "magn", scales: { ["in_magn_\($0)_scale", "in_magn_scale"] }, matrixProperty: nil, warn: warn)
        return axes.map { IIOMagnetometer(device: device, axes: $0) }
    }

    /// The field in the device's axes, `M × v` in µT. Unlike the accelerometer's, nothing is
    /// negated: a field has no sign convention to undo (sextantd(8), IIO SENSORS).
    public static func deviceFrame(gauss v: (x: Double, y: Double, z: Double), mountMatrix: IIOMountMatrix) -> MagneticField {
        let s = mountMatrix.applied(to: v)
        return MagneticField(x: s.x * microteslaPerGauss, y: s.y * microteslaPerGauss, z: s.z * microteslaPerGauss)
    }

    /// One reading, every file read afresh.
    public func read() throws(SysfsReadError) -> MagneticField {
        Self.deviceFrame(gauss: try axes.read(), mountMatrix: axes.mountMatrix)
    }

    public func reading() throws(SysfsReadError) -> SensorReading { try read().reading }

    public var logMetadata: Logger.Metadata {
        axes.logMetadata(unit: "gauss").merging(["path": "\(device.syspath)"]) { $1 }
    }
}
