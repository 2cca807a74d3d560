import Logging
import SextantCore

/// A compass that reports its own heading: the HID sensor hub's `magn_3d` device on
/// laptops and tablets (Linux `hid-sensor-magn-3d`), whose
/// `in_rot_from_north_magnetic_tilt_comp_raw` channel is what iio-sensor-proxy's
/// `iio-buffer-compass` driver reads. Where the hub also gives
/// `in_rot_from_north_true_tilt_comp_raw`, that is the true heading.
public struct IIOCompass: IIODriver {
    public static let kind = SensorKind.compass

    public var device: IIODeviceInfo
    /// Degrees from magnetic north, when the device has the channel.
    public var magnetic: IIOChannel?
    /// Degrees from true north, when the device has the channel.
    public var trueNorth: IIOChannel?

    public init(device: IIODeviceInfo, magnetic: IIOChannel?, trueNorth: IIOChannel?) {
        precondition(magnetic != nil || trueNorth != nil, "a compass reads at least one heading")
        self.device = device
        self.magnetic = magnetic
        self.trueNorth = trueNorth
    }

    static let magneticPrefix = "in_rot_from_north_magnetic_tilt_comp"
    static let truePrefix = "in_rot_from_north_true_tilt_comp"

    /// A device with `in_rot_from_north_magnetic_tilt_comp_raw` or
    /// `in_rot_from_north_true_tilt_comp_raw`, whatever its name (iio-sensor-proxy's udev
    /// rule tests the channel, not the name).
    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOCompass? {
        let magnetic = try channel(device, magneticPrefix), trueNorth = try channel(device, truePrefix)
        guard magnetic != nil || trueNorth != nil else { return nil }
        return IIOCompass(device: device, magnetic: magnetic, trueNorth: trueNorth)
    }

    /// The channel `prefix`, with its own scale and offset, else the `in_rot_` ones the
    /// HID driver shares between its heading channels, else 1 and 0.
    static func channel(_ device: IIODeviceInfo, _ prefix: String) throws(SysfsReadError) -> IIOChannel? {
        guard SysfsAttribute.exists(device.path("\(prefix)_raw")) else { return nil }
        let scale = try IIOProbe.firstNumber(device, ["\(prefix)_scale", "in_rot_scale"]) ?? 1
        let offset = try IIOProbe.firstNumber(device, ["\(prefix)_offset", "in_rot_offset"]) ?? 0
        return IIOChannel(rawPath: device.path("\(prefix)_raw"), scale: scale, offset: offset)
    }

    /// A heading in degrees (the HID hub's unit after scale and offset) within 0 ..< 360:
    /// one turn either side is wrapped (a hub that says -90 or 360 means 270 or 0); anything
    /// further is a broken scale or offset and is left as it is, for the range check to
    /// refuse (`IIOReadingCheck`).
    public static func degrees(_ value: Double) -> Double {
        guard value >= -360, value < 720 else { return value }
        let wrapped = value.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }

    /// One reading, every file read afresh.
    public func read() throws(SysfsReadError) -> CompassReading {
        let magneticHeading = try magnetic.map { channel throws(SysfsReadError) in Self.degrees(try channel.read()) }
        let trueHeading = try trueNorth.map { channel throws(SysfsReadError) in Self.degrees(try channel.read()) }
        return CompassReading(magnetic: magneticHeading, trueHeading: trueHeading)
    }

    public func reading() throws(SysfsReadError) -> SensorReading { try read().reading }

    public var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["path": "\(device.syspath)"]
        if let magnetic { metadata["magnetic scale"] = "\(magnetic.scale)" }
        if let trueNorth { metadata["true scale"] = "\(trueNorth.scale)" }
        return metadata
    }
}
