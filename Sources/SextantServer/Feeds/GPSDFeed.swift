import Logging
import SextantCore
import SextantGPSD

/// Feeds a live gpsd into the hub: samples through `ingest`, the source's state into
/// `status` (`sources`, name `gpsd`). Both hop onto the hub's event loop in the order the
/// source produced them.
final class GPSDFeed: Sendable {
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
        source.start()
    }

    /// Nothing reaches the hub after this returns.
    func stop() { source.stop() }
}
