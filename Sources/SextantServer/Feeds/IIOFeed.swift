import Logging
import SextantCore
import SextantIIO

/// Feeds the live IIO sensors into the hub: samples through `ingest`, the list of sensors
/// in use into `status` (`sources`, name `iio`). Both hop onto the hub's event loop in
/// the order the source produced them.
final class IIOFeed: Sendable {
    private let source: IIOSensorSource

    init(configuration: IIOSourceConfiguration, hub: Hub, logger: Logger) {
        hub.eventLoop.execute { hub.sourceStates.set(.iio, .starting) }
        source = IIOSensorSource(configuration: configuration, logger: logger) { event in
            hub.eventLoop.execute {
                switch event {
                case .sample(let sample): hub.ingest(sample, from: .iio)
                case .sensors(let summary): hub.sourceStates.set(.iio, .live(summary))
                }
            }
        }
        source.start()
    }

    /// `--no-iio`: the source is off, and `status` says so.
    static func off(in hub: Hub) {
        hub.eventLoop.execute { hub.sourceStates.set(.iio, .off) }
    }

    /// Nothing reaches the hub after this returns.
    func stop() async { await source.stop() }
}
