import Logging
import SextantCore
@_spi(Sources) import SextantHub
import SextantIIO

/// Feeds the live IIO sensors into the hub: samples through `ingest`, the list of sensors
/// in use into `status` (`sources`, name `iio`). Both hop onto the hub's event loop in
/// the order the source produced them.
final class IIOFeed: LiveSource {
    private let hub: HubHandle
    private let source: IIOSensorSource

    init(configuration: IIOSourceConfiguration, hub: HubHandle, logger: Logger) {
        self.hub = hub
        source = IIOSensorSource(configuration: configuration, logger: logger) { event in
            hub.execute { hub in
                switch event {
                case .sample(let sample): hub.ingest(sample, from: .iio)
                case .sensors(let summary): hub.setSourceState(.iio, .live(summary))
                }
            }
        }
    }

    /// `--iio-rate` (50 Hz by default); with `--no-iio` the source is off, and `status` says so.
    static func open(_ configuration: DaemonConfiguration, hub: HubHandle, logger: Logger) -> IIOFeed? {
        guard let rate = configuration.iioRate else {
            hub.execute { hub in hub.setSourceState(.iio, .off) }
            return nil
        }
        return IIOFeed(configuration: IIOSourceConfiguration(rate: rate), hub: hub, logger: logger)
    }

    func start() {
        let hub = self.hub
        hub.execute { hub in hub.setSourceState(.iio, .starting) }
        source.start()
    }

    /// Nothing reaches the hub after this returns.
    func stop() async { await source.stop() }
}
