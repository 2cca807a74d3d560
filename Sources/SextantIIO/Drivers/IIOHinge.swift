import Logging
import SextantCore

/// A hinge angle sensor: the HID custom hinge sensor (Linux `hid-sensor-custom-intel-hinge`,
/// device name `hinge`, channels `in_angl0_raw`… labelled `hinge`, `keyboard`, `screen`) or
/// ChromeOS's lid angle (`cros-ec-lid-angle`, `in_angl_raw`).
public struct IIOHinge: IIODriver {
    public static let kind = SensorKind.hinge

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

    /// Device names whose angle channel is a hinge or lid angle.
    static let hingeNames: Set<String> = ["hinge", "cros-ec-lid-angle"]

    /// A device named `hinge` (its channel labelled `hinge`, else `in_angl0_raw`) or
    /// `cros-ec-lid-angle` (`in_angl_raw`).
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOHinge? {
        guard let name = try SysfsAttribute.optionalText(at: device.path("name")), hingeNames.contains(name) else { return nil }
        guard let prefix = try angleChannelPrefix(device) else { return nil }
        // Scale and offset: the channel's own, else shared by the angle channels.
        let scale = try IIOProbe.firstNumber(device, ["\(prefix)_scale", "in_angl_scale"])
        let offset = try IIOProbe.firstNumber(device, ["\(prefix)_offset", "in_angl_offset"]) ?? 0
        return IIOHinge(
            device: device, channel: IIOChannel(rawPath: device.path("\(prefix)_raw"), scale: scale ?? 1, offset: offset),
            scaledToRadians: scale != nil)
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

    /// Degrees, limited to RULES P1's 0 (closed) to 180 (flat): a convertible folded back
    /// past flat (tent, tablet) reads over 180 and counts as flat.
    public static func degrees(_ value: Double, scaledToRadians: Bool) -> Double {
        let degrees = scaledToRadians ? value * 180 / Double.pi : value
        return min(max(degrees, 0), 180)
    }

    public func read() throws(SysfsReadError) -> Double {
        Self.degrees(try channel.read(), scaledToRadians: scaledToRadians)
    }

    public func reading() throws(SysfsReadError) -> SensorReading { SensorReading(hingeAngle: try read()) }

    public var logMetadata: Logger.Metadata {
        ["path": "\(channel.rawPath)", "scale": scaledToRadians ? "\(channel.scale) (radians)" : "none (degrees)"]
    }
}
