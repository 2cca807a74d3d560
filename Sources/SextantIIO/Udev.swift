import CUdev

/// A libudev context. libudev objects are not thread-safe: a context and everything made
/// from it stay on the thread that made them (the IIO source's own thread).
final class UdevContext {
    let handle: OpaquePointer

    init?() {
        guard let handle = udev_new() else { return nil }
        self.handle = handle
    }

    deinit { udev_unref(handle) }

    /// Every device of a subsystem present now.
    func devices(subsystem: String) -> [UdevDevice] {
        guard let enumerate = udev_enumerate_new(handle) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, subsystem)
        udev_enumerate_scan_devices(enumerate)
        var devices: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current), let device = device(syspath: String(cString: name)) {
                devices.append(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return devices
    }

    /// A fresh look at a device: its properties as the udev database has them now.
    func device(syspath: String) -> UdevDevice? {
        udev_device_new_from_syspath(handle, syspath).map(UdevDevice.init(taking:))
    }
}

/// One device as libudev sees it.
final class UdevDevice {
    private let handle: OpaquePointer

    init(taking handle: OpaquePointer) { self.handle = handle }

    deinit { udev_device_unref(handle) }

    var syspath: String { string(udev_device_get_syspath(handle)) ?? "" }
    var sysname: String { string(udev_device_get_sysname(handle)) ?? "" }
    /// `add`, `remove`, `change`, `bind`, `unbind`, `move`, for a device from a monitor.
    var action: String? { string(udev_device_get_action(handle)) }

    func property(_ name: String) -> String? { string(udev_device_get_property_value(handle, name)) }

    /// What the IIO probe needs of it.
    var iioInfo: IIODeviceInfo {
        var properties: [String: String] = [:]
        for name in IIODeviceInfo.propertyNames { properties[name] = property(name) }
        return IIODeviceInfo(sysname: sysname, syspath: syspath, properties: properties)
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
}

/// Hotplug events of one subsystem, from udevd's netlink group (sent once udevd has run its
/// rules, so the database already has the device's properties).
final class UdevMonitor {
    private let handle: OpaquePointer

    /// Nil when the monitor cannot be made (no netlink, for instance in some sandboxes).
    init?(context: UdevContext, subsystem: String) {
        guard let handle = udev_monitor_new_from_netlink(context.handle, "udev") else { return nil }
        guard udev_monitor_filter_add_match_subsystem_devtype(handle, subsystem, nil) >= 0,
            udev_monitor_enable_receiving(handle) >= 0
        else {
            udev_monitor_unref(handle)
            return nil
        }
        self.handle = handle
    }

    deinit { udev_monitor_unref(handle) }

    /// To wait on with poll(2): readable when an event is there.
    var fileDescriptor: Int32 { udev_monitor_get_fd(handle) }

    /// One event. Call only once the descriptor is readable.
    func receive() -> UdevDevice? { udev_monitor_receive_device(handle).map(UdevDevice.init(taking:)) }
}
