import Logging
import SextantCore

/// An IIO accelerometer (`in_accel_{x,y,z}_raw`) and how its readings become Sextant's
/// device frame.
public struct IIOAccelerometer: IIODriver {
    public static let kind = SensorKind.accelerometer

    public var device: IIODeviceInfo
    /// Its matrix from `ACCEL_MOUNT_MATRIX`, `mount_matrix`, `in_accel_mount_matrix` or
    /// `identity`.
    public var axes: IIOAxes
    /// `display`, `lid` or `base` (udev `ACCEL_LOCATION`, else sysfs `location`), when known.
    public var location: String?

    public init(device: IIODeviceInfo, axes: IIOAxes, location: String? = nil) {
        (self.device, self.axes, self.location) = (device, axes, location)
    }

    public var mountMatrixOrigin: String { axes.mountMatrixOrigin }

    /// A device with `in_accel_x_raw`, `in_accel_y_raw` and `in_accel_z_raw`.
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOAccelerometer? {
        // Scale: shared by the three axes, else one per axis, else the device's, else 1. The
        // matrix: udev's (hwdb quirks) first.
        let axes = try IIOAxes.probe(
            device, type: "accel", scales: { ["in_accel_scale", "in_accel_\($0)_scale", "scale"] }, matrixProperty: "ACCEL_MOUNT_MATRIX",
            warn: warn)
        guard let axes else { return nil }
        var location = device.properties["ACCEL_LOCATION"]
        if location == nil { location = try SysfsAttribute.optionalText(at: device.path("location")) }
        return IIOAccelerometer(device: device, axes: axes, location: location)
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
        Self.deviceFrame(sensor: try axes.read(), mountMatrix: axes.mountMatrix)
    }

    public func reading() throws(SysfsReadError) -> SensorReading { try read().reading }

    /// Whether this accelerometer sits in a convertible's keyboard base (udev
    /// `ACCEL_LOCATION`, else sysfs `location`, says `base`): its gravity does not follow the
    /// screen, so it is not used for the device orientation.
    public var isInBase: Bool { location == "base" }

    public var isUsable: Bool { !isInBase }

    public var logMetadata: Logger.Metadata {
        axes.logMetadata(unit: nil).merging(["path": "\(device.syspath)", "location": "\(location ?? "unknown")"]) { $1 }
    }
}
