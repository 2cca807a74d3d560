/// Decides what an IIO device is, from its attribute files and udev properties.
///
/// An accelerometer has `in_accel_x_raw`, `in_accel_y_raw` and `in_accel_z_raw`. A hinge is a
/// device named `hinge` (its channel labelled `hinge`, else `in_angl0_raw`) or
/// `cros-ec-lid-angle` (`in_angl_raw`). Anything else (light sensors, magnetometers,
/// ADCs...) is not for Sextant.
public enum IIOProbe {
    /// Device names whose angle channel is a hinge or lid angle.
    static let hingeNames: Set<String> = ["hinge", "cros-ec-lid-angle"]

    /// What the device is, or nil when Sextant has no use for it. Throws when a file it
    /// needs cannot be read (the device is going away, or a value is not a number).
    /// `warn` hears of values that were skipped (a mount matrix that does not parse).
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void = { _ in }) throws(SysfsReadError) -> IIOSensor? {
        if let accelerometer = try accelerometer(device, warn: warn) { return .accelerometer(accelerometer) }
        if let hinge = try hinge(device) { return .hinge(hinge) }
        return nil
    }

    static func accelerometer(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOAccelerometer? {
        let axes = ["x", "y", "z"]
        guard axes.allSatisfy({ SysfsAttribute.exists(device.path("in_accel_\($0)_raw")) }) else { return nil }
        var channels: [IIOChannel] = []
        for axis in axes {
            // Scale: shared by the three axes, else one per axis, else the device's, else 1.
            let scale = try firstNumber(device, ["in_accel_scale", "in_accel_\(axis)_scale", "scale"]) ?? 1
            let offset = try firstNumber(device, ["in_accel_\(axis)_offset", "in_accel_offset"]) ?? 0
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
    /// `mount_matrix`, sysfs `in_accel_mount_matrix`; else the identity. One that does not
    /// parse is logged and skipped, as iio-sensor-proxy does.
    static func mountMatrix(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> (IIOMountMatrix, String) {
        var candidates: [(String, String)] = []
        if let text = device.properties["ACCEL_MOUNT_MATRIX"] { candidates.append(("ACCEL_MOUNT_MATRIX", text)) }
        for attribute in ["mount_matrix", "in_accel_mount_matrix"] {
            if let text = try SysfsAttribute.optionalText(at: device.path(attribute)) { candidates.append((attribute, text)) }
        }
        for (origin, text) in candidates {
            if let matrix = IIOMountMatrix(parsing: text) { return (matrix, origin) }
            warn("\(device.sysname): ignoring \(origin) \"\(text)\": not a mount matrix")
        }
        return (.identity, "identity")
    }

    static func hinge(_ device: IIODeviceInfo) throws(SysfsReadError) -> IIOHinge? {
        guard let name = try SysfsAttribute.optionalText(at: device.path("name")), hingeNames.contains(name) else { return nil }
        guard let prefix = try angleChannelPrefix(device) else { return nil }
        // Scale and offset: the channel's own, else shared by the angle channels.
        let scale = try firstNumber(device, ["\(prefix)_scale", "in_angl_scale"])
        let offset = try firstNumber(device, ["\(prefix)_offset", "in_angl_offset"]) ?? 0
        return IIOHinge(
            device: device, channel: IIOChannel(rawPath: device.path("\(prefix)_raw"), scale: scale ?? 1, offset: offset),
            scaledToRadians: scale != nil)
    }

    /// The value of the first of these attributes the device has.
    static func firstNumber(_ device: IIODeviceInfo, _ attributes: [String]) throws(SysfsReadError) -> Double? {
        for attribute in attributes {
            if let value = try SysfsAttribute.optionalNumber(at: device.path(attribute)) { return value }
        }
        return nil
    }

    /// `in_anglN` labelled `hinge` (the HID hinge also has `keyboard` and `screen`
    /// angles), else `in_angl0`, else the unindexed `in_angl` (cros-ec-lid-angle).
    static func angleChannelPrefix(_ device: IIODeviceInfo) throws(SysfsReadError) -> String? {
        var indexed: [String] = []
        for index in 0..<8 where SysfsAttribute.exists(device.path("in_angl\(index)_raw")) {
            indexed.append("in_angl\(index)")
        }
        for prefix in indexed {
            if try SysfsAttribute.optionalText(at: device.path("\(prefix)_label")) == "hinge" { return prefix }
        }
        if let first = indexed.first { return first }
        return SysfsAttribute.exists(device.path("in_angl_raw")) ? "in_angl" : nil
    }
}
