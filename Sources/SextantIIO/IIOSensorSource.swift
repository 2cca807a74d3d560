import Foundation
import Logging
import SextantCore
import SextantProtocol
import Synchronization

/// Settings of the IIO source (`sextantd --iio-rate`, `--no-iio`).
public struct IIOSourceConfiguration: Sendable {
    /// Readings a second of each sensor in use.
    public var rate: Double

    public static let defaultRate = 50.0

    public init(rate: Double = IIOSourceConfiguration.defaultRate) { self.rate = rate }

    /// The poll period in nanoseconds.
    var period: Int64 { Int64((1e9 / rate).rounded()) }
}

/// What the IIO source tells its owner.
public enum IIOSourceEvent: Sendable, Equatable {
    /// A reading of one of the drivers' kinds (``IIODrivers``): an acceleration in
    /// Sextant's device frame, a hinge angle in degrees.
    case sample(Sample)
    /// The sensors in use changed (`accel iio:device0, hinge iio:device1`, `no sensors`).
    case sensors(String)
}

/// Live Linux IIO sensors of the kinds ``IIODrivers/all`` knows, found with libudev,
/// polled through sysfs, followed through hotplug.
///
/// The source runs on a thread of its own, which owns every libudev object. It sleeps in
/// poll(2) on two descriptors, the udev monitor and a stop pipe, with the time to the next
/// reading as the timeout: a hotplug event, a reading and a stop are each handled as soon as
/// they are due, and nothing ever blocks without readiness. Events are handed to `handler`
/// on that thread.
public final class IIOSensorSource: Sendable {
    private let configuration: IIOSourceConfiguration
    private let logger: Logger
    private let handler: @Sendable (IIOSourceEvent) -> Void
    private let clock: SextantClock
    /// Written once by `stop()`; the thread polls the read end.
    private let stopPipe: (read: Int32, write: Int32)
    private let lifecycle = Mutex(Lifecycle())

    private struct Lifecycle {
        var started = false
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// - Parameter clock: paces the readings (monotonic) and stamps them (wall).
    public init(
        configuration: IIOSourceConfiguration, logger: Logger, clock: SextantClock = .system,
        handler: @escaping @Sendable (IIOSourceEvent) -> Void
    ) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.handler = handler
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        } else {
            logger.error("iio: cannot make a pipe: \(String(cString: strerror(errno))); the source will not start")
            fds = [-1, -1]
        }
        stopPipe = (fds[0], fds[1])
    }

    deinit {
        if stopPipe.read >= 0 { close(stopPipe.read) }
        if stopPipe.write >= 0 { close(stopPipe.write) }
    }

    /// Starts the thread (once; never without its stop pipe, which `stop()` relies on).
    public func start() {
        let starting = lifecycle.withLock { state in
            guard !state.started, stopPipe.read >= 0 else { return false }
            state.started = true
            return true
        }
        guard starting else { return }
        let thread = Thread { [self] in
            IIOWatcher(configuration: configuration, logger: logger, clock: clock, handler: handler, stopFD: stopPipe.read).run()
            let waiters = lifecycle.withLock { state in
                state.finished = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "sextant-iio"
        thread.start()
    }

    /// Stops the thread and returns once it has ended (at once if it never started).
    public func stop() async {
        guard lifecycle.withLock({ $0.started }) else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lifecycle.withLock { state in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if done { continuation.resume() }
        }
    }
}

/// The source's thread: discovery, hotplug and polling. Lives and dies on that thread.
final class IIOWatcher {
    private let configuration: IIOSourceConfiguration
    private let logger: Logger
    private let handler: @Sendable (IIOSourceEvent) -> Void
    private let stopFD: Int32
    private var sensors = IIOSensorSet()
    private var reportedSummary: String?
    private let clock: SextantClock
    private var stamps: MonotonicWallClock
    /// Out-of-range readings, warned about once per sensor (``IIOSensor/key``) every 10 s.
    private var outOfRange = RateLimitedWarnings(interval: 10_000_000_000)
    /// Monotonic time of the next reading.
    private var nextReading: Int64 = 0
    /// Sensors (``IIOSensor/key``) whose last read failed for a reason other than being
    /// gone, so that a failing sensor is logged once per run of failures, not at every reading.
    private var failing: Set<String> = []

    init(
        configuration: IIOSourceConfiguration, logger: Logger, clock: SextantClock, handler: @escaping @Sendable (IIOSourceEvent) -> Void,
        stopFD: Int32
    ) {
        self.configuration = configuration
        self.clock = clock
        self.stamps = MonotonicWallClock(clock: clock)
        self.logger = logger
        self.handler = handler
        self.stopFD = stopFD
    }

    func run() {
        guard let udev = UdevContext() else {
            logger.error("iio: cannot create a libudev context: no IIO sensors")
            report(summary: "unavailable")
            waitForStop()
            return
        }
        // The monitor listens before the enumeration, so that a sensor plugged in between
        // is not missed (seen twice at worst, which changes nothing).
        var monitor = UdevMonitor(context: udev, subsystem: "iio")
        if monitor == nil { logger.warning("iio: no udev monitor: sensors added later will not be seen") }
        for device in udev.devices(subsystem: "iio") { consider(device.iioInfo) }
        sensorsChanged()

        var wasIdle = true
        while true {
            let inUse = sensors.inUse
            // A first sensor (or one after none) is read at once; after that, every period.
            if wasIdle, !inUse.isEmpty { nextReading = clock.monotonicNanoseconds() }
            wasIdle = inUse.isEmpty
            var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            if let monitor { fds.append(pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            var timeout: Int32 = -1
            if !inUse.isEmpty {
                let remaining = max(0, nextReading - clock.monotonicNanoseconds())
                timeout = Int32((remaining + 999_999) / 1_000_000)  // whole ms, rounded up: never early
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno != EINTR {
                logger.error("iio: poll failed: \(String(cString: strerror(errno))); the source stops")
                return
            }
            if fds[0].revents != 0 { return }
            if fds.count > 1, fds[1].revents != 0 {
                if fds[1].revents & Int16(POLLIN) != 0, let device = monitor?.receive() {
                    hotplug(device, udev: udev)
                } else if fds[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    logger.warning("iio: the udev monitor failed: sensors added later will not be seen")
                    monitor = nil
                }
            }
            // Read what is in use now: the hotplug event just handled may have changed it.
            if !inUse.isEmpty, clock.monotonicNanoseconds() >= nextReading {
                read(sensors.inUse)
                let now = clock.monotonicNanoseconds()
                nextReading += configuration.period
                // Late by a whole period (a stalled bus, a suspend): start the rhythm afresh.
                if nextReading <= now { nextReading = now + configuration.period }
            }
        }
    }

    // MARK: - Discovery and hotplug

    private func hotplug(_ event: UdevDevice, udev: UdevContext) {
        let action = event.action ?? "change"
        let sysname = event.sysname
        logger.debug("iio: uevent", metadata: ["action": "\(action)", "device": "\(sysname)"])
        switch action {
        case "remove", "unbind":
            let gone = forget(sysname)
            if !gone.isEmpty { logger.info("iio: \(gone.kinds) \(sysname) removed") }
        default:
            // add, change, bind, move: look again, with the database's current properties
            // (a `change` can bring a new ACCEL_MOUNT_MATRIX).
            if let device = udev.device(syspath: event.syspath) {
                consider(device.iioInfo)
            } else {
                let gone = forget(sysname)
                if !gone.isEmpty { logger.info("iio: \(gone.kinds) \(sysname) is gone") }
            }
        }
        sensorsChanged()
    }

    /// Probes a device and adds, updates or forgets the sensors it is.
    private func consider(_ device: IIODeviceInfo) {
        let found: [IIOSensor]
        do {
            found = try IIOProbe.probeAll(device) { logger.warning("iio: \($0)") }
        } catch {
            if error.deviceIsGone {
                let gone = forget(device.sysname)
                if !gone.isEmpty { logger.info("iio: \(gone.kinds) \(device.sysname) is gone") }
            } else {
                logger.warning("iio: cannot read \(device.sysname): \(error)")
            }
            return
        }
        guard !found.isEmpty else {
            let former = forget(device.sysname)
            if !former.isEmpty {
                logger.info("iio: \(device.sysname) is no longer a sensor Sextant uses (was \(former.kinds))")
            } else {
                logger.debug("iio: \(device.sysname) is not a sensor Sextant uses")
            }
            return
        }
        let former = sensors.devices[device.sysname] ?? []
        let known = Set(former.map(\.kind))
        guard sensors.set(device.sysname, to: found) else { return }
        forgetWarnings(former)
        for sensor in found {
            logger.info("iio: \(sensor.kind) \(device.sysname) \(known.contains(sensor.kind) ? "updated" : "found")", metadata: sensor.logMetadata)
        }
    }

    /// Forgets a device's sensors and what was warned about them; answers them.
    @discardableResult
    private func forget(_ sysname: String) -> [IIOSensor] {
        let gone = sensors.remove(sysname)
        forgetWarnings(gone)
        return gone
    }

    /// A sensor found again is warned about afresh.
    private func forgetWarnings(_ former: [IIOSensor]) {
        for sensor in former {
            failing.remove(sensor.key)
            outOfRange.forget(sensor.key)
        }
    }

    /// Tells the owner which sensors are in use, when that changed.
    private func sensorsChanged() {
        let summary = sensors.summary
        guard summary != reportedSummary else { return }
        logger.info("iio: sensors in use: \(summary)")
        report(summary: summary)
    }

    private func report(summary: String) {
        reportedSummary = summary
        handler(.sensors(summary))
    }

    // MARK: - Readings

    private func read(_ inUse: [IIOSensor]) {
        var dropped = false
        for sensor in inUse {
            let sysname = sensor.device.sysname
            do {
                let value = try sensor.read()
                failing.remove(sensor.key)
                if let problem = IIOReadingCheck.problem(value) {
                    warnOutOfRange(sensor, problem)
                    continue
                }
                handler(.sample(Sample(time: stamps.now(), value: value)))
            } catch {
                if error.deviceIsGone {
                    // Vanished before its remove event: dropped now, so no reading of it is stale.
                    logger.warning("iio: \(sensor.kind) \(sysname) vanished: \(error); dropped")
                    forget(sysname)
                    dropped = true
                } else if failing.insert(sensor.key).inserted {
                    logger.warning("iio: cannot read \(sensor.kind) \(sysname): \(error); skipping its readings until it reads again")
                }
            }
        }
        if dropped { sensorsChanged() }
    }

    /// A reading out of range is dropped; the log says so once, then once every 10 s.
    private func warnOutOfRange(_ sensor: IIOSensor, _ problem: String) {
        guard let heldBack = outOfRange.note(sensor.key, at: clock.monotonicNanoseconds()) else { return }
        let since = heldBack > 0 ? " (and \(heldBack) more since the last warning)" : ""
        logger.warning("iio: \(sensor.key) reading out of range, dropped: \(problem)\(since)")
    }

    private func waitForStop() {
        var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
        while poll(&fds, 1, -1) < 0 && errno == EINTR {}
    }
}
