import Logging
import SextantCore
import SextantGPSD
@_spi(Sources) import SextantHub

/// Feeds a live gpsd into the hub: samples through `ingest`, the source's state into
/// `status` (`sources`, name `gpsd`), in the order the source produced them.
///
/// The source runs on the hub's event loop (it reads gpsd's socket there), so each event
/// reaches the hub in the same turn that read it: no hop, no thread between gpsd and the apps.
final class GPSDFeed: LiveSource {
    private let source: GPSDSource

    init(endpoint: GPSDEndpoint, hub: HubHandle, logger: Logger) {
        hub.execute { hub in hub.updateSourceStates { $0.gpsdOpened(server: endpoint.description) } }
        source = GPSDSource(endpoint: endpoint, eventLoop: hub.eventLoop, logger: logger) { [hub] event in
            let hub = hub.hub
            switch event {
            case .state(let state):
                let wallNow = hub.clock.wallTime()
                hub.updateSourceStates { $0.gpsdStateChanged(to: state.rawValue, wallNow: wallNow) }
            case .sample(let sample):
                if case .location = sample.value {
                    let now = hub.clock.monotonicNanoseconds()
                    hub.updateSourceStates { $0.gpsdFixHeard(at: now) }
                }
                hub.ingest(sample, from: .gpsd)
            case .devices(let paths):
                hub.updateSourceStates { $0.gpsdDevices(paths) }
            case .linkDown(let reason):
                hub.updateSourceStates { $0.gpsdLinkDown(reason) }
            }
        }
    }

    /// `--gpsd` (or the default gpsd when there is no `--replay`); none with `--no-gpsd`.
    static func open(_ configuration: DaemonConfiguration, hub: HubHandle, logger: Logger) -> GPSDFeed? {
        configuration.gpsd.map { GPSDFeed(endpoint: $0, hub: hub, logger: logger) }
    }

    func start() { source.start() }

    /// Nothing reaches the hub after this returns (the source never waits on gpsd).
    func stop() async { source.stop() }
}
