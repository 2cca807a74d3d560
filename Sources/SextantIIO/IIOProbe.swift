/// Decides what an IIO device is, from its attribute files and udev properties: each
/// driver of ``IIODrivers/all`` that recognises it makes it one sensor (a HID `magn_3d` is
/// a magnetometer and a compass). Anything no driver knows (light sensors, ADCs...) is not
/// for Sextant.
public enum IIOProbe {
    /// The first sensor the device is, or nil when Sextant has no use for it. Throws when a file a
    /// driver needs cannot be read (the device is going away, or a value is not a number).
    /// `warn` hears of values that were skipped (a mount matrix that does not parse).
    public static func probe(
        _ device: IIODeviceInfo, drivers: [any IIODriver.Type] = IIODrivers.all, warn: (String) -> Void = { _ in }
    ) throws(SysfsReadError) -> IIOSensor? {
        for driver in drivers {
            if let sensor = try driver.probe(device, warn: warn) { return IIOSensor(sensor) }
        }
        return nil
    }

    /// Every sensor the device is, one a driver that recognises it, in the drivers' order;
    /// empty when Sextant has no use for it.
    public static func probeAll(
        _ device: IIODeviceInfo, drivers: [any IIODriver.Type] = IIODrivers.all, warn: (String) -> Void = { _ in }
    ) throws(SysfsReadError) -> [IIOSensor] {
        var found: [IIOSensor] = []
        for driver in drivers {
            if let sensor = try driver.probe(device, warn: warn) { found.append(IIOSensor(sensor)) }
        }
        return found
    }

    /// The value of the first of these attributes the device has.
    static func firstNumber(_ device: IIODeviceInfo, _ attributes: [String]) throws(SysfsReadError) -> Double? {
        for attribute in attributes {
            if let value = try SysfsAttribute.optionalNumber(at: device.path(attribute)) { return value }
        }
        return nil
    }
}
