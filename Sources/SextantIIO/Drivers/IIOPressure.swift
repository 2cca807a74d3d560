import Logging
import SextantCore

/// A barometer: `in_pressure_input` or `in_pressure_raw` (else `in_pressure0_…`). The IIO
/// ABI gives pressure in kPa after `(raw + offset) × scale` (a processed `_input` is kPa as
/// it is); the sample is `pressure` in hPa, ten times that.
public struct IIOPressure: IIODriver {
    public static let kind = SensorKind.pressure

    public var device: IIODeviceInfo
    public var channel: IIOChannel

    public init(device: IIODeviceInfo, channel: IIOChannel) {
        self.device = device
        self.channel = channel
    }

    static let prefixes = ["in_pressure", "in_pressure0"]

    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOPressure? {
        for prefix in prefixes {
            if SysfsAttribute.exists(device.path("\(prefix)_input")) {
                return IIOPressure(device: device, channel: IIOChannel(rawPath: device.path("\(prefix)_input"), scale: 1))
            }
            if SysfsAttribute.exists(device.path("\(prefix)_raw")) {
                let scale = try IIOProbe.firstNumber(device, ["\(prefix)_scale", "in_pressure_scale"]) ?? 1
                let offset = try IIOProbe.firstNumber(device, ["\(prefix)_offset", "in_pressure_offset"]) ?? 0
                return IIOPressure(device: device, channel: IIOChannel(rawPath: device.path("\(prefix)_raw"), scale: scale, offset: offset))
            }
        }
        return nil
    }

    /// kPa into hPa.
    public func reading() throws(SysfsReadError) -> SensorReading { SensorReading(hectopascals: try channel.read() * 10) }

    public var logMetadata: Logger.Metadata {
        ["path": "\(channel.rawPath)", "scale": "\(channel.scale) (kPa)", "offset": "\(channel.offset)"]
    }
}
