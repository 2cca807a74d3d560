import Logging
import SextantHub

/// A live source of samples: something outside the daemon (a gpsd, the machine's sensors)
/// that the hub hears from for as long as the daemon runs.
///
/// Shaped after iio-sensor-proxy's driver table (discover / open / set_polling / close),
/// cut to what Sextant needs:
/// - discover and open are one step, ``open(_:hub:logger:)``: the daemon's configuration
///   says whether the source is wanted, and where (`--gpsd`, `--iio-rate`, `--no-iio`). Each
///   source discovers its own devices after that (the IIO source probes every device udev
///   shows it, and follows hotplug; the gpsd source reconnects), since a device that is
///   missing at start-up must not stop the daemon.
/// - there is no set_polling: a live source runs whether or not anyone listens. The rules
///   need it: `status`'s `deviceOrientation` and every foreground app's interface
///   orientation (RULES O6, O7) follow the orientation judge even when no app has asked
///   for sensor events, and `hello` and `status` must answer with the current orientation
///   at once, which the judge can only know from readings taken before the question (O2
///   settles over 40 ms to 1 s of samples, O3 over 500 ms). Reading the IIO accelerometer
///   only while a client is connected would make the first answer to each new client
///   stale, so the sensors are read at `--iio-rate` from start to stop (sextantd(8)).
/// - close is ``stop()``: nothing of the source reaches the hub once it returns.
///
/// To add a source: one file in this folder with a type that conforms, and one entry in
/// ``LiveSources/all``.
protocol LiveSource: Sendable {
    /// The source as the configuration asks for it, not yet started; nil when the
    /// configuration turns it off (the source then tells `status` so itself).
    static func open(_ configuration: DaemonConfiguration, hub: HubHandle, logger: Logger) -> Self?

    /// Starts feeding the hub; the source's samples and state hop onto the hub's event
    /// loop in the order it produced them.
    func start()

    /// Stops for good: nothing reaches the hub after this returns.
    func stop() async
}

/// Every live source the daemon knows, and their lifecycle as a group.
enum LiveSources {
    /// The one place a live source is registered.
    static let all: [any LiveSource.Type] = [GPSDFeed.self, IIOFeed.self]

    /// Opens and starts each source the configuration asks for, in the order of ``all``.
    static func start(_ configuration: DaemonConfiguration, hub: HubHandle, logger: Logger) -> [any LiveSource] {
        let sources = all.compactMap { $0.open(configuration, hub: hub, logger: logger) as (any LiveSource)? }
        for source in sources { source.start() }
        return sources
    }

    /// Stops them in the reverse order.
    static func stop(_ sources: [any LiveSource]) async {
        for source in sources.reversed() { await source.stop() }
    }
}
