import Foundation
import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantDBusFaces
@_spi(Daemon) import SextantHub
import SextantProtocol
import SextantSocketFace
import SextantStore
import ServiceLifecycle

/// The store and the hub on its event loop: first to start, last to stop. When told to
/// stop it closes the sessions left, stops timers and threads and flushes the store.
final class HubService: Service, Sendable {
    let hub: HubHandle
    let storePath: String
    /// The hub's loop (the first) and the loops connections are spread over (`--io-threads`).
    let group: MultiThreadedEventLoopGroup

    private init(hub: HubHandle, storePath: String, group: MultiThreadedEventLoopGroup) {
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
            if let zone = configuration.timeZone {
                snapshot.timeZoneOverride = zone == "auto" ? nil : zone
                try store.write([.timeZoneOverride(snapshot.timeZoneOverride)])
            }
            let platform = try PlatformChoice.resolve(given: configuration.platform, snapshot: snapshot, stateDirectory: configuration.stateDirectory)
            if platform != snapshot.platform { try store.write([.platform(platform)]) }
            snapshot.platform = platform
        } catch let error as DaemonStartError {
            throw error
        } catch let error as StoreError {
            throw DaemonStartError(description: error.description)
        } catch {
            throw DaemonStartError(description: "the store in \(configuration.stateDirectory): \(error)")
        }
        announceStoredPolicy(snapshot.policy, configuration: configuration, logger: logger)
        var hubConfiguration = configuration.hub
        hubConfiguration.platform = snapshot.platform ?? .ios
        do throws(DaemonStartError) {
            hubConfiguration.services.timeZone = try TimeZoneTableFile.settings(path: configuration.timeZoneTable)
        } catch {
            store.close()
            throw error
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.ioThreads)
        let hub: HubHandle
        do {
            hub = try HubHandle.make(eventLoop: group.next(), store: store, snapshot: snapshot, configuration: hubConfiguration, logger: logger).wait()
        } catch {
            throw DaemonStartError(description: "the hub's event loop: \(error)")
        }
        // Until it is in place (or if it cannot be), work split across turns pauses on timers.
        hub.execute { hub in
            // `status` shows `dbus` (null without `--dbus`) whether or not a bus is served.
            hub.register(DBusStatusFace())
            hub.installWakeSocket().whenFailure { [logger] error in
                logger.warning("no wake-up socket for the event loop: work split across turns pauses between slices", metadata: ["error": "\(error)"])
            }
        }
        return HubService(hub: hub, storePath: store.path, group: group)
    }

    /// A policy other than `ask` kept in the store answers every prompt of every later
    /// daemon on this state directory: said at each start, with how to undo it.
    private static func announceStoredPolicy(_ policy: PromptPolicy, configuration: DaemonConfiguration, logger: Logger) {
        guard policy.mode != "ask", !configuration.hub.storeIsEphemeral else { return }
        let given = configuration.promptPolicy != nil ? "set by --prompt-policy" : "kept from an earlier --prompt-policy or prompts.policy"
        logger.notice(
            """
            prompt policy \(policy.mode)\(policy.precise ? "" : " (approximate)"), \(given), is stored in \(configuration.stateDirectory): \
            every prompt is answered without asking, by this daemon and every later one on this state directory, \
            until reset with `sextantctl prompts policy ask` (--ephemeral keeps a policy to one run)
            """)
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
/// another daemon is live there nothing of ours is touched), or taken from systemd (socket
/// activation); closed when told to stop, before the hub closes the sessions. The socket
/// files the daemon bound itself are removed then; those systemd passed stay, systemd's.
final class ListenerService: Service, Sendable {
    let controlPath: String
    let appPath: String
    let appClientLimit: Int
    private let channels: [Channel]
    /// The socket files this daemon created, removed at stop.
    private let ownFiles: [String]

    private init(controlPath: String, appPath: String, appClientLimit: Int, channels: [Channel], ownFiles: [String]) {
        self.controlPath = controlPath
        self.appPath = appPath
        self.appClientLimit = appClientLimit
        self.channels = channels
        self.ownFiles = ownFiles
    }

    /// What the listeners are told by the command line and by systemd.
    struct Options {
        var runtimeDirectory: String
        var maxAppClients: Int
        /// `--control-group`: the control socket is 0660 with this group.
        var controlGroup: UInt32?
        var activation: SocketActivation
    }

    /// Accepts on the hub's loop; each connection is served by the next of `connectionLoops`.
    static func bind(_ options: Options, hub: HubHandle, connectionLoops: EventLoopGroup) async throws(DaemonStartError) -> ListenerService {
        var activation = options.activation
        var channels: [Channel] = []
        var bound: [String] = []
        var paths: [String] = []
        do {
            let appLimit = try DescriptorBudget.appClientLimit(requested: options.maxAppClients)
            let trimmer = HeapTrimmer(eventLoop: hub.eventLoop)
            let reserve = DescriptorReserve()
            let face = try await hub.submit { hub in
                let face = SocketFace(hub: hub)
                hub.register(face)
                return NIOLoopBound(face, eventLoop: hub.eventLoop)
            }.get()
            let sockets: [(name: String, kind: SocketKind, mode: mode_t, group: UInt32?, limit: Int)] = [
                (DefaultPaths.controlSocketName, .control, options.controlGroup == nil ? 0o600 : 0o660, options.controlGroup, DescriptorBudget.controlClients),
                (DefaultPaths.appSocketName, .app, 0o666, nil, appLimit),
            ]
            for socket in sockets {
                let budget = ConnectionBudget(limit: socket.limit, trimmer: trimmer)
                if let passed = activation.claim(socket.name) {
                    paths.append(SocketActivation.boundPath(of: passed.raw) ?? "descriptor \(passed.raw) from systemd")
                    channels.append(try await SocketListener.serve(passed, kind: socket.kind, budget: budget, reserve: reserve, hub: hub, face: face, connectionLoops: connectionLoops))
                } else {
                    let path = options.runtimeDirectory + "/" + socket.name
                    paths.append(path)
                    channels.append(
                        try await SocketListener.bind(
                            path: path, kind: socket.kind, mode: socket.mode, group: socket.group, budget: budget, reserve: reserve, hub: hub, face: face, connectionLoops: connectionLoops))
                    bound.append(path)
                }
            }
            return ListenerService(controlPath: paths[0], appPath: paths[1], appClientLimit: appLimit, channels: channels, ownFiles: bound)
        } catch {
            for channel in channels { try? await channel.close() }
            for path in bound { unlink(path) }
            if let listenError = error as? ListenError { throw DaemonStartError(description: listenError.description) }
            if let startError = error as? DaemonStartError { throw startError }
            throw DaemonStartError(description: "cannot serve \(options.runtimeDirectory): \(error)")
        }
    }

    func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    /// Stops accepting and removes the socket files the daemon created.
    func close() async {
        for channel in channels { try? await channel.close() }
        for path in ownFiles { unlink(path) }
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
