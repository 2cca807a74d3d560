import Foundation
import Logging
import NIOCore
import NIOPosix
import SextantProtocol
import SextantStore
import ServiceLifecycle

/// The store and the hub on its event loop: first to start, last to stop. When told to
/// stop it closes the sessions left, stops timers and threads and flushes the store.
final class HubService: Service, Sendable {
    let hub: Hub
    let storePath: String
    private let group: MultiThreadedEventLoopGroup

    private init(hub: Hub, storePath: String, group: MultiThreadedEventLoopGroup) {
        self.hub = hub
        self.storePath = storePath
        self.group = group
    }

    static func open(configuration: DaemonConfiguration, logger: Logger) throws(DaemonStartError) -> HubService {
        let store: SextantStore
        var snapshot: StoreSnapshot
        do {
            store = try SextantStore(directory: configuration.stateDirectory)
            snapshot = try store.load()
            if let policy = configuration.promptPolicy {
                try store.savePolicy(policy)
                snapshot.policy = policy
            }
        } catch let error as StoreError {
            throw DaemonStartError(description: error.description)
        } catch {
            throw DaemonStartError(description: "the store in \(configuration.stateDirectory): \(error)")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let hub = Hub(eventLoop: group.next(), store: store, snapshot: snapshot, configuration: configuration.hub, logger: logger)
        return HubService(hub: hub, storePath: store.path, group: group)
    }

    func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    func close() async {
        await hub.shutdown()
        try? await group.shutdownGracefully()
    }
}

/// Both sockets: bound before any service runs (the control socket first, so that when
/// another daemon is live there nothing of ours is touched); closed and removed when told
/// to stop, before the hub closes the sessions.
final class ListenerService: Service, Sendable {
    let controlPath: String
    let appPath: String
    let appClientLimit: Int
    private let channels: [Channel]

    private init(controlPath: String, appPath: String, appClientLimit: Int, channels: [Channel]) {
        self.controlPath = controlPath
        self.appPath = appPath
        self.appClientLimit = appClientLimit
        self.channels = channels
    }

    static func bind(runtimeDirectory: String, maxAppClients: Int, hub: Hub) async throws(DaemonStartError) -> ListenerService {
        let controlPath = runtimeDirectory + "/" + DefaultPaths.controlSocketName
        let appPath = runtimeDirectory + "/" + DefaultPaths.appSocketName
        var channels: [Channel] = []
        var bound: [String] = []
        do {
            let appLimit = try DescriptorBudget.appClientLimit(requested: maxAppClients)
            let trimmer = HeapTrimmer(eventLoop: hub.eventLoop)
            let reserve = DescriptorReserve()
            let controlBudget = ConnectionBudget(limit: DescriptorBudget.controlClients, eventLoop: hub.eventLoop, trimmer: trimmer)
            channels.append(try await SocketListener.bind(path: controlPath, kind: .control, mode: 0o600, budget: controlBudget, reserve: reserve, hub: hub))
            bound.append(controlPath)
            let appBudget = ConnectionBudget(limit: appLimit, eventLoop: hub.eventLoop, trimmer: trimmer)
            channels.append(try await SocketListener.bind(path: appPath, kind: .app, mode: 0o666, budget: appBudget, reserve: reserve, hub: hub))
            bound.append(appPath)
            return ListenerService(controlPath: controlPath, appPath: appPath, appClientLimit: appLimit, channels: channels)
        } catch {
            for channel in channels { try? await channel.close() }
            for path in bound { unlink(path) }
            if let listenError = error as? ListenError { throw DaemonStartError(description: listenError.description) }
            if let startError = error as? DaemonStartError { throw startError }
            throw DaemonStartError(description: "cannot serve \(runtimeDirectory): \(error)")
        }
    }

    func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    /// Stops accepting and removes both socket files.
    func close() async {
        for channel in channels { try? await channel.close() }
        unlink(appPath)
        unlink(controlPath)
    }
}

/// The live sources: first to stop, so that no sample arrives while the sockets close.
final class FeedService: Service, Sendable {
    private let sources: [any LiveSource]
    private let logger: Logger

    init(sources: [any LiveSource], logger: Logger) {
        self.sources = sources
        self.logger = logger
    }

    func run() async throws {
        try? await gracefulShutdown()
        await LiveSources.stop(sources)
    }
}

/// Last in the group: says READY=1 (to systemd, to the test harness) only once the group
/// runs, that is once SIGTERM and SIGINT are trapped, so that a stop asked for the moment
/// the daemon says it is ready is a graceful one; first to hear of the stop.
final class ReadinessService: Service, Sendable {
    private let status: String
    private let logger: Logger

    init(status: String, logger: Logger) {
        self.status = status
        self.logger = logger
    }

    func run() async throws {
        SystemdNotifier.notify("READY=1\nSTATUS=\(status)")
        try? await gracefulShutdown()
        logger.info("sextantd stopping")
        SystemdNotifier.notify("STOPPING=1")
    }
}
