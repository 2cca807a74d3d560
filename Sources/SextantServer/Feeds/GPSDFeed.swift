import Logging
import SextantCore
import SextantGPSD

/// Feeds a live gpsd into the hub: samples through `ingest`, the source's state into
/// `status` (`sources`, name `gpsd`). Both hop onto the hub's event loop in the order the
/// source produced them.
final class GPSDFeed: LiveSource {
    private let source: GPSDSource

    init(endpoint: GPSDEndpoint, hub: Hub, logger: Logger) {
        source = GPSDSource(endpoint: endpoint, logger: logger) { event in
            hub.eventLoop.execute {
                switch event {
                case .state(let state): hub.sourceStates.set(.gpsd, .live(state.rawValue))
                case .sample(let sample): hub.ingest(sample, from: .gpsd)
                }
            }
        }
    }

    /// `--gpsd` (or the default gpsd when there is no `--replay`); none with `--no-gpsd`.
    static func open(_ configuration: DaemonConfiguration, hub: Hub, logger: Logger) -> GPSDFeed? {
        configuration.gpsd.map { GPSDFeed(endpoint: $0, hub: hub, logger: logger) }
    }

    func start() { source.start() }

    /// Nothing reaches the hub after this returns (the source never waits on gpsd).
    func stop() async { source.stop() }
}
