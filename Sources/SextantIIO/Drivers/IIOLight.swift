import Logging
import SextantCore

/// An ambient light sensor: `in_illuminance_input` or `in_illuminance_raw` (else the
/// indexed `in_illuminance0_…`), the channels iio-sensor-proxy's `iio-poll-als` driver reads.
///
/// A processed `_input` is lux already (the IIO ABI); a `_raw` value becomes lux by the
/// channel's `(raw + offset) × scale`. iio-sensor-proxy 3.0 multiplies either by the scale
/// and ignores the offset; the two agree on every sensor whose `_input` has no scale and
/// whose `_raw` no offset, which is how the kernel's light drivers declare them.
public struct IIOLight: IIODriver {
    public static let kind = SensorKind.light

    public var device: IIODeviceInfo
    public var channel: IIOChannel

    public init(device: IIODeviceInfo, channel: IIOChannel) {
        self.device = device
        self.channel = channel
    }

    /// The channel prefixes iio-sensor-proxy tries, in its order.
    static let prefixes = ["in_illuminance", "in_illuminance0"]

    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOLight? {
        for prefix in prefixes {
            if SysfsAttribute.exists(device.path("\(prefix)_input")) {
                return IIOLight(device: device, channel: IIOChannel(rawPath: device.path("\(prefix)_input"), scale: 1))
            }
            if SysfsAttribute.exists(device.path("\(prefix)_raw")) {
                let scale = try IIOProbe.firstNumber(device, ["\(prefix)_scale", "in_illuminance_scale"]) ?? 1
                let offset = try IIOProbe.firstNumber(device, ["\(prefix)_offset", "in_illuminance_offset"]) ?? 0
                return IIOLight(device: device, channel: IIOChannel(rawPath: device.path("\(prefix)_raw"), scale: scale, offset: offset))
            }
        }
        return nil
    }

    /// Lux, never below 0 (a dark sensor's offset may take it a little under).
    public func reading() throws(SysfsReadError) -> SensorReading { SensorReading(lux: max(0, try channel.read())) }

    public var logMetadata: Logger.Metadata {
        ["path": "\(channel.rawPath)", "scale": "\(channel.scale)", "offset": "\(channel.offset)"]
    }
}
