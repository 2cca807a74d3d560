import Logging
import SextantCore
import Synchronization

/// A proximity sensor (`in_proximity_raw`), near or far as iio-sensor-proxy's
/// `iio-poll-proximity` decides it: the raw level against the device's near level (udev
/// `PROXIMITY_NEAR_LEVEL`, else sysfs `in_proximity_nearlevel`), with its 10 % margin
/// (``ProximityThreshold``). A sensor without a near level is not used, as there: no level
/// means near and far cannot be told apart.
public struct IIOProximity: IIODriver {
    public static let kind = SensorKind.proximity

    public var device: IIODeviceInfo
    public var rawPath: String
    public var nearLevel: Double
    /// The previous level, which the margin depends on; read and written on the source's thread.
    private let threshold: LastLevel

    public init(device: IIODeviceInfo, rawPath: String, nearLevel: Double) {
        (self.device, self.rawPath, self.nearLevel) = (device, rawPath, nearLevel)
        threshold = LastLevel(ProximityThreshold(nearLevel: nearLevel))
    }

    public static func probe(_ device: IIODeviceInfo, warn: (String) -> Void) throws(SysfsReadError) -> IIOProximity? {
        let rawPath = device.path("in_proximity_raw")
        guard SysfsAttribute.exists(rawPath) else { return nil }
        var level = device.properties["PROXIMITY_NEAR_LEVEL"].flatMap { Double($0) }
        if level == nil || level == 0 { level = try SysfsAttribute.optionalNumber(at: device.path("in_proximity_nearlevel")) }
        guard let level, level > 0 else {
            warn("proximity \(device.sysname) has no near level (udev PROXIMITY_NEAR_LEVEL or in_proximity_nearlevel): not used")
            return nil
        }
        return IIOProximity(device: device, rawPath: rawPath, nearLevel: level)
    }

    public func reading() throws(SysfsReadError) -> SensorReading {
        let raw = try SysfsAttribute.number(at: rawPath)
        return SensorReading(near: threshold.state.withLock { $0.isNear(raw) })
    }

    public var logMetadata: Logger.Metadata { ["path": "\(rawPath)", "nearLevel": "\(nearLevel)"] }

    public static func == (a: IIOProximity, b: IIOProximity) -> Bool {
        a.device == b.device && a.rawPath == b.rawPath && a.nearLevel == b.nearLevel
    }
}

/// The threshold's memory, shared by the copies of one driver value.
private final class LastLevel: Sendable {
    let state: Mutex<ProximityThreshold>
    init(_ threshold: ProximityThreshold) { state = Mutex(threshold) }
}
