import Logging
import SextantCore

/// An IIO gyroscope (`in_anglvel_{x,y,z}_raw`: BMI160, LSM6DSx and their kin on phones and
/// tablets, the HID sensor hub's `gyro_3d` on laptops) and how its readings become rad/s
/// about Sextant's device axes.
public struct IIOGyroscope: IIODriver {
    public static let kind = SensorKind.gyroscope

    public var device: IIODeviceInfo
    /// Its matrix from `mount_matrix`, `in_anglvel_mount_matrix` or `identity`.
    public var axes: IIOAxes

    public init(device: IIODeviceInfo, axes: IIOAxes) {
        (self.device, self.axes) = (device, axes)
    }

    public var mountMatrixOrigin: String { axes.mountMatrixOrigin }

    /// A device with `in_anglvel_x_raw`, `in_anglvel_y_raw` and `in_anglvel_z_raw`.
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOGyroscope? {
        // The shared scale (BMI160, LSM6DSx), else the axis's own, else the device's. No udev
        // property: hwdb has mount matrices for accelerometers only.
        let axes = try IIOAxes.probe(
            device, type: "anglvel", scales: { ["in_anglvel_scale", "in_anglvel_\($0)_scale", "scale"] }, matrixProperty: nil,
            warn: warn)
        return axes.map { IIOGyroscope(device: device, axes: $0) }
    }

    /// The IIO ABI gives the rate in rad/s after offset and scale
    /// (Documentation/ABI/testing/sysfs-bus-iio, `in_anglvel_x_raw`), about the sensor's
    /// axes; the mount matrix turns them into the device's, `M × v`. Nothing is negated: the
    /// accelerometer's sign flip undoes iio-sensor-proxy's gravity convention, which a rate
    /// does not have (sextantd(8), IIO SENSORS).
    public static func deviceFrame(radiansPerSecond v: (x: Double, y: Double, z: Double), mountMatrix: IIOMountMatrix) -> RotationRate {
        let s = mountMatrix.applied(to: v)
        return RotationRate(x: s.x, y: s.y, z: s.z)
    }

    /// One reading, every file read afresh.
    public func read() throws(SysfsReadError) -> RotationRate {
        Self.deviceFrame(radiansPerSecond: try axes.read(), mountMatrix: axes.mountMatrix)
    }

    public func reading() throws(SysfsReadError) -> SensorReading { try read().reading }

    public var logMetadata: Logger.Metadata {
        axes.logMetadata(unit: "rad/s").merging(["path": "\(device.syspath)"]) { $1 }
    }
}
