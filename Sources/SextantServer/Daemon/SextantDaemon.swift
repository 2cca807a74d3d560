import Foundation
import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantProtocol
import SextantGPSD
import SextantIIO
import SextantTraces
import SextantStore
import ServiceLifecycle

/// Everything `sextantd` was told on its command line.
public struct DaemonConfiguration: Sendable {
    public var runtimeDirectory: String
    public var stateDirectory: String
    public var hub = HubConfiguration()
    public var replayPath: String?
    public var replaySpeed: Double? = 1  // nil = max
    public var replayLoop = false
    /// Set with `--prompt-policy`: replaces the stored policy.
    public var promptPolicy: PromptPolicy?
    /// Readings a second of the live IIO sensors; nil with `--no-iio`.
    public var iioRate: Double? = IIOSourceConfiguration.defaultRate
    /// The gpsd to take live fixes from (`--gpsd`); nil for none (`--no-gpsd`).
    public var gpsd: GPSDEndpoint?
    /// Where the gpsd face listens (`--gpsd-listen`); none by default.
    public var gpsdListen: [GPSDListenAddress] = []
    /// `--gpsd-listen-any`: non-loopback listen addresses are allowed.
    public var gpsdListenAny = false

    public init(runtimeDirectory: String, stateDirectory: String) {
        self.runtimeDirectory = runtimeDirectory
        self.stateDirectory = stateDirectory
    }
}

/// A start-up failure with a message for the person who started the daemon.
public struct DaemonStartError: Error, CustomStringConvertible {
    public var description: String
}

/// The daemon as a service: opens the store, serves both sockets, runs until SIGTERM or
/// SIGINT, then stops accepting, closes the sessions, flushes the store and removes the
/// socket files.
public struct SextantDaemon: Service {
    let configuration: DaemonConfiguration
    let logger: Logger

    public init(configuration: DaemonConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
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
        }
        let runtime = configuration.runtimeDirectory
        try makeRuntimeDirectory(runtime)

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let hub = Hub(eventLoop: group.next(), store: store, snapshot: snapshot, configuration: configuration.hub, logger: logger)
        var listeners: [Channel] = []
        let appPath = runtime + "/" + DefaultPaths.appSocketName
        let controlPath = runtime + "/" + DefaultPaths.controlSocketName
        do {
            // The control socket first: if another daemon is live there, nothing of ours is touched.
            listeners.append(try await SocketListener.bind(path: controlPath, kind: .control, mode: 0o600, hub: hub))
            listeners.append(try await SocketListener.bind(path: appPath, kind: .app, mode: 0o666, hub: hub))
            listeners += try await GPSDListener.bindAll(configuration.gpsdListen, allowAny: configuration.gpsdListenAny, hub: hub)  // gpsd face
            if let path = configuration.replayPath {
                let speed: ReplaySpeed = configuration.replaySpeed.map { .factor($0) } ?? .max
                do {
                    try await hub.eventLoop.flatSubmit { hub.startReplay(path: path, speed: speed, loop: configuration.replayLoop) }.get()
                } catch let error as RPCError {
                    throw DaemonStartError(description: "--replay: \(error.message)")
                }
            }
        } catch {
            for channel in listeners { try? await channel.close() }
            await hub.shutdown()
            try? await group.shutdownGracefully()
            if let listenError = error as? ListenError { throw DaemonStartError(description: listenError.description) }
            throw error
        }

        // Live sources. Neither a missing gpsd nor a machine without sensors is a start-up
        // failure: the gpsd feed keeps retrying, the IIO feed waits for hotplug.
        let liveSources = LiveSources.start(configuration, hub: hub, logger: logger)

        logger.info(
            "sextantd ready",
            metadata: [
                "version": "\(sextantVersion)", "app socket": "\(appPath)", "control socket": "\(controlPath)",
                "store": "\(store.path)", "profile": "\(configuration.hub.profile.rawValue)", "pid": "\(getpid())",
            ])
        SystemdNotifier.notify("READY=1\nSTATUS=serving \(appPath)")

        // Runs until SIGTERM/SIGINT (the ServiceGroup's graceful shutdown) or cancellation.
        try? await gracefulShutdown()

        logger.info("sextantd stopping")
        SystemdNotifier.notify("STOPPING=1")
        await LiveSources.stop(liveSources)
        for channel in listeners { try? await channel.close() }
        await hub.shutdown()
        unlink(appPath)
        unlink(controlPath)
        try? await group.shutdownGracefully()
        logger.info("sextantd stopped")
    }

    private func makeRuntimeDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw DaemonStartError(description: "--runtime-dir \(path) is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaemonStartError(description: "cannot create the runtime directory \(path): \(error.localizedDescription)")
        }
    }
}

extension SextantDaemon: CustomStringConvertible {
    public var description: String { "sextantd" }
}
