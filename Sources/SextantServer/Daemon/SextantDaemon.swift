import Foundation
import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantDBus
import SextantDBusFaces
import SextantGPSDFace
@_spi(Daemon) import SextantHub
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
    public var replaySpeed = ReplaySpeed.factor(1)
    public var replayLoop = false
    /// Set with `--prompt-policy`: replaces the stored policy.
    public var promptPolicy: PromptPolicy?
    /// Readings a second of the live IIO sensors; nil with `--no-iio`.
    public var iioRate: Double? = IIOSourceConfiguration.defaultRate
    /// The gpsd to take live fixes from (`--gpsd`); nil for none (`--no-gpsd`).
    public var gpsd: GPSDEndpoint?
    /// Where the gpsd face listens (`--gpsd-listen`); none by default. `--gpsd-listen-any`
    /// allows addresses other than loopback ones.
    public var gpsdListen: [GPSDListenAddress] = []
    public var gpsdListenAny = false
    /// At most this many app connections at once (`--max-clients`); fewer when the
    /// descriptor limit leaves less room (see `DescriptorBudget`).
    public var maxAppClients = DescriptorBudget.defaultMaxAppClients
    /// Event loops the app and control connections are spread over (`--io-threads`); the
    /// hub runs on the first. 1: every connection on the hub's loop.
    public var ioThreads = 1
    /// `--io-threads`'s default: the cores this process may run on.
    public static var defaultIOThreads: Int { System.coreCount }
    /// The bus the D-Bus faces serve on (`--dbus`); none by default.
    public var dbus: DBusBusAddress?
    /// What stops the daemon when the process that started it is gone (`--exit-with-fd`).
    public var supervisor: SupervisorWatch?
    /// `--time-zone-table`: nil for the installed table if there is one (RULES Z1).
    public var timeZoneTable: String?
    /// `--time-zone`: a zone set by hand, stored (Z9); "auto" stores the automatic zone.
    public var timeZone: String?
    /// `--platform` (and `--android-api`); nil: the one stored in the state directory, else iOS.
    public var platform: DevicePlatform?

    public init(runtimeDirectory: String, stateDirectory: String) {
        self.runtimeDirectory = runtimeDirectory
        self.stateDirectory = stateDirectory
    }
}

/// A start-up failure with a message for the person who started the daemon.
public struct DaemonStartError: Error, CustomStringConvertible {
    public var description: String
}

/// The daemon, started: its parts as services of one `ServiceGroup`, in dependency order
/// (the hub with its store, the listeners, the live feeds, the readiness notice), so that
/// SIGTERM or SIGINT stops them in reverse: the feeds first, then the sockets (closed and
/// removed), then the hub (sessions closed, store flushed).
///
/// Everything that can fail at start-up happens in `start`, before any service runs, so a
/// bad directory, store, socket or trace stops the daemon with one clear message.
public struct SextantDaemon {
    public let services: [any Service]
    let logger: Logger

    public static func start(configuration: DaemonConfiguration, logger: Logger) async throws(DaemonStartError) -> SextantDaemon {
        // Read (and the variables unset) first, so that a refusal below still closes what systemd passed.
        let activation = try SocketActivation.take()
        try PrivateDirectory.prepare(configuration.stateDirectory, option: "--state-dir")
        // With both sockets from systemd the daemon creates nothing there: the directory is systemd's.
        if !activation.passesEverySocket { try PrivateDirectory.prepare(configuration.runtimeDirectory, option: "--runtime-dir") }
        let hubService = try HubService.open(configuration: configuration, logger: logger)
        let hub = hubService.hub
        let listeners: ListenerService
        do throws(DaemonStartError) {
            let options = ListenerService.Options(
                runtimeDirectory: configuration.runtimeDirectory, maxAppClients: configuration.maxAppClients,
                controlGroup: configuration.hub.controlGroup, activation: activation)
            listeners = try await ListenerService.bind(options, hub: hub, connectionLoops: hubService.group)
        } catch {
            await hubService.close()
            throw error
        }
        let gpsdFace: GPSDFaceService
        do throws(DaemonStartError) {
            gpsdFace = try await bindGPSDFace(configuration, hub: hub)
            try await startReplay(configuration: configuration, hub: hub)
        } catch {
            await listeners.close()
            await hubService.close()
            throw error
        }

        // Live sources. Neither a missing gpsd nor a machine without sensors is a start-up
        // failure: the gpsd feed keeps retrying, the IIO feed waits for hotplug.
        let liveSources = LiveSources.start(configuration, hub: hub, logger: logger)
        let feeds = FeedService(sources: liveSources, logger: logger)
        // D-Bus faces: a bus that is not there is a fault retried in the background.
        let dbus: [any Service] = DBusBusService.open(configuration.dbus, hub: hub, logger: logger).map { [$0] } ?? []

        logger.info(
            "sextantd ready",
            metadata: [
                "version": "\(sextantVersion)", "app socket": "\(listeners.appPath)", "control socket": "\(listeners.controlPath)",
                "store": "\(hubService.storePath)", "profile": "\(configuration.hub.profile.rawValue)", "pid": "\(getpid())",
                "max app clients": "\(listeners.appClientLimit)", "io threads": "\(configuration.ioThreads)",
            ])
        let readiness = ReadinessService(status: "serving \(listeners.appPath)", logger: logger)
        let supervisor: [any Service] = configuration.supervisor.map { [$0] } ?? []
        return SextantDaemon(services: [hubService, listeners, gpsdFace] + dbus + [feeds, readiness] + supervisor, logger: logger)
    }

    /// The gpsd face's listeners (`--gpsd-listen`).
    private static func bindGPSDFace(_ configuration: DaemonConfiguration, hub: HubHandle) async throws(DaemonStartError) -> GPSDFaceService {
        do throws(ListenError) {
            return try await GPSDFaceService.bind(configuration.gpsdListen, allowAny: configuration.gpsdListenAny, hub: hub)
        } catch {
            throw DaemonStartError(description: error.description)
        }
    }

    private static func startReplay(configuration: DaemonConfiguration, hub: HubHandle) async throws(DaemonStartError) {
        guard let path = configuration.replayPath else { return }
        let speed = configuration.replaySpeed
        do {
            try await hub.flatSubmit { hub in hub.startReplay(path: path, speed: speed, loop: configuration.replayLoop) }.get()
        } catch let error as RPCError {
            throw DaemonStartError(description: "--replay: \(error.message)")
        } catch {
            throw DaemonStartError(description: "--replay: \(error)")
        }
    }

    /// Runs the services until SIGTERM or SIGINT, and stops them in reverse order.
    public func run() async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: services.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        logger.info("sextantd stopped")
    }
}
