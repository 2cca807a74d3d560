import ArgumentParser
import Foundation
import Logging
import SextantCore
import SextantDBus
import SextantProtocol
import SextantServer
import SextantTraces
import SextantGPSD
import SextantGPSDFace
import SextantHub
import SextantIIO
import ServiceLifecycle

extension GnssProvider: ExpressibleByArgument {}

struct SextantdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sextantd",
        abstract: "Serve a phone's location and orientation services to apps over Unix sockets.",
        discussion: """
            Apps connect to RUNTIME-DIR/app.sock; sextantctl controls the daemon through \
            RUNTIME-DIR/control.sock (served to this user and root only). Locations come from \
            a live gpsd (--gpsd, by default localhost:2947 unless --replay is given), a replayed \
            trace (--replay), or are set by hand (sextantctl location set). \
            Accelerometer and hinge readings also come from the Linux IIO sensors that udev \
            lists (--no-iio turns them off). \
            Permissions, the Location Services switch and the prompt policy persist in \
            STATE-DIR/sextant.sqlite3. SIGTERM or SIGINT stops the daemon cleanly; SIGHUP is \
            logged and ignored.
            """,
        version: sextantVersion)

    @Option(name: .customLong("runtime-dir"), help: ArgumentHelp("Directory for app.sock and control.sock.", valueName: "dir"))
    var runtimeDirectory: String?

    @Option(
        name: .customLong("max-clients"),
        help: ArgumentHelp(
            "App connections served at once (default \(DescriptorBudget.defaultMaxAppClients); fewer if the descriptor limit is low).",
            valueName: "n"))
    var maxClients: Int = DescriptorBudget.defaultMaxAppClients

    @Option(
        name: .customLong("io-threads"),
        help: ArgumentHelp(
            "Event loops that write to app and control clients (default: the core count; 1 = the hub's loop alone).",
            valueName: "n"))
    var ioThreads: Int = DaemonConfiguration.defaultIOThreads

    @Option(
        name: .customLong("max-regions"),
        help: ArgumentHelp("Regions (geofences) one app may monitor (default 20, as iOS; 100 as Android).", valueName: "n"))
    var maxRegions: Int = RegionMonitor.defaultMaxRegionsPerApp

    @Option(
        name: .customLong("max-apps-per-uid"),
        help: ArgumentHelp(
            "App ids with a stored decision or region one uid may hold, root and the daemon's own excepted (default 256).", valueName: "n"))
    var maxAppsPerUID: Int = HubConfiguration.defaultMaxAppsPerUID

    @Option(
        name: .customLong("max-regions-per-uid"),
        help: ArgumentHelp("Regions the apps of one uid may monitor in all, root and the daemon's own excepted (default 1000).", valueName: "n"))
    var maxRegionsPerUID: Int = ServiceSettings.defaultMaxRegionsPerUID

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Directory for the permission store.", valueName: "dir"))
    var stateDirectory: String?

    @Flag(help: "Keep the store in a private temporary directory, removed at exit: nothing is read from or left to the next run.")
    var ephemeral = false

    @Option(help: "Device profile: phone, tablet or foldable.")
    var profile: DeviceProfile = .phone

    @Option(help: ArgumentHelp("Replay this trace (Sextant JSONL, NMEA or GPX) once ready.", valueName: "path"))
    var replay: String?

    // Unconditional: `--speed -1` is a value to refuse with the range, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Replay speed: a factor of real time, or max.", valueName: "N|max"))
    var speed: String = "1"

    @Flag(help: "Replay the trace over and over.")
    var loop = false

    @Option(
        name: .customLong("gpsd"),
        help: ArgumentHelp("Take live fixes from this gpsd (default localhost:2947 when no --replay is given).", valueName: "host[:port]"))
    var gpsd: String?

    @Flag(name: .customLong("no-gpsd"), help: "Do not connect to gpsd.")
    var noGPSD = false

    @Option(
        name: .customLong("gpsd-listen"),
        help: ArgumentHelp("Serve gpsd's protocol to gpsd clients here (repeatable; a bare port is on 127.0.0.1).", valueName: "[host:]port"))
    var gpsdListen: [String] = []

    @Flag(name: .customLong("gpsd-listen-any"), help: "Allow --gpsd-listen on addresses other than loopback ones.")
    var gpsdListenAny = false

    @Option(
        name: .customLong("dbus"),
        help: ArgumentHelp("Serve iio-sensor-proxy's and GeoClue's D-Bus names on this bus (off by default).", valueName: "system|session|ADDRESS"))
    var dbus: String?

    @Option(
        name: .customLong("prompt-policy"),
        help: ArgumentHelp("Answer new prompts with this choice, or ask (leave them pending). Stored.", valueName: "ask|CHOICE"))
    var promptPolicy: String?

    @Flag(name: .customLong("approximate"), help: "With --prompt-policy CHOICE: grant reduced accuracy.")
    var approximate = false

    @Option(
        name: .customLong("control-group"),
        help: ArgumentHelp("Members of this group (a name or a gid) may use the control socket too (mode 0660).", valueName: "group"))
    var controlGroup: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(name: .customLong("gpx-speed"), help: ArgumentHelp("Speed for GPX routes without times (m/s).", valueName: "mps"))
    var gpxSpeed: Double = 1.4

    @Option(name: .customLong("gpx-interval"), help: ArgumentHelp("Interpolate a fix every this many seconds along GPX routes without times (default: the points alone).", valueName: "s"))
    var gpxInterval: Double?

    @Option(
        name: .customLong("gnss-provider"),
        help: ArgumentHelp("Whose fixes a replayed GnssLogger recording plays: gps, flp, nlp, any, or auto (GPS, else FLP, else NLP).", valueName: "provider"))
    var gnssProvider: GnssProvider = .automatic

    @Option(
        name: .customLong("gnss-profile"),
        help: ArgumentHelp(
            "Degrade every source's fixes as a receiver would (RULES N1-N7): open-sky, urban, forest or indoor, then events: cold-start, tunnel@START+DURATION (seconds after the first fix).",
            valueName: "spec"))
    var gnssProfile: String?

    @Option(help: ArgumentHelp("Seed of the GNSS profile's generator: the same seed gives the same fixes (default 1).", valueName: "n"))
    var seed: UInt64 = 1

    @Option(
        name: .customLong("simulated-flag"),
        help: ArgumentHelp("What a fix's simulated flag says: auto (replay and hand-set yes, gpsd no), always or never.", valueName: "auto|always|never"))
    var simulatedFlag: SimulatedFlag = .auto

    @Option(
        name: .customLong("significant-distance"),
        help: ArgumentHelp("Metres moved between two significant changes (1-1000000, RULES S2).", valueName: "m"))
    var significantDistance: Double = SignificantChangeSettings().distance

    @Option(
        name: .customLong("significant-interval"),
        help: ArgumentHelp("Least seconds between two significant changes, in sample time (0-86400, RULES S2).", valueName: "s"))
    var significantInterval: Double = SignificantChangeSettings().interval

    @Option(name: .customLong("visit-radius"), help: ArgumentHelp("Metres a visit's stay keeps within (10-10000, RULES V1).", valueName: "m"))
    var visitRadius: Double = VisitSettings().radius

    @Option(
        name: .customLong("visit-duration"),
        help: ArgumentHelp("Seconds of stay that make a visit, in sample time (1-86400, RULES V2).", valueName: "s"))
    var visitDuration: Double = VisitSettings().minimumStay

    @Flag(name: .customLong("no-iio"), help: "Do not read the Linux IIO sensors (accelerometer, hinge).")
    var noIIO = false

    @Option(
        name: .customLong("time-zone-table"),
        help: ArgumentHelp("The time zone boundary table (default: \(TimeZoneSettings.installedTablePath) if installed; RULES Z1).", valueName: "path"))
    var timeZoneTable: String?

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp("Set the device's zone by hand, stored (RULES Z9); auto follows the position again.", valueName: "zone|auto"))
    var timeZone: String?

    @Option(
        name: .customLong("platform"),
        help: ArgumentHelp("The phone to play, stored in the state directory (default: the stored one, else ios).", valueName: "ios|android"))
    var platform: String?

    @Option(
        name: .customLong("android-api"),
        help: ArgumentHelp("With --platform android: the API level whose rules apply (29-36, default 36).", valueName: "level"))
    var androidAPI: Int?

    @Option(name: .customLong("iio-rate"), help: ArgumentHelp("Readings a second of each IIO sensor (default 50).", valueName: "hz"))
    var iioRate: Double?

    @Option(
        name: .customLong("allow-once-timeout"),
        help: ArgumentHelp(
            "The grace of \"in use\": seconds an allowOnce grant or temporary full accuracy survives in the background (above 0, at most 86400; default 10, docs/platforms.md I8).",
            valueName: "seconds"))
    var allowOnceTimeout: Double = Double(AuthorizationEngine.defaultAllowOnceBackgroundLimit) / 1e9

    @Option(
        name: .customLong("exit-with-fd"),
        help: ArgumentHelp("Stop, as on SIGTERM, when this descriptor (a pipe's read end) reaches end of file: for tools.", valueName: "n", visibility: .hidden))
    var exitWithDescriptor: Int32?

    @Option(
        name: .customLong("exit-removes"),
        help: ArgumentHelp("With --exit-with-fd: remove this directory after stopping for its end of file.", valueName: "dir", visibility: .hidden))
    var exitRemoves: String?

    func validate() throws {
        if exitRemoves != nil, exitWithDescriptor == nil { throw ValidationError("--exit-removes goes with --exit-with-fd") }
        guard maxClients >= 1, maxClients <= 1_000_000 else { throw ValidationError("--max-clients must be between 1 and 1000000") }
        guard ioThreads >= 1, ioThreads <= 1024 else { throw ValidationError("--io-threads must be between 1 and 1024") }
        guard maxRegions >= 1, maxRegions <= 100_000 else { throw ValidationError("--max-regions must be between 1 and 100000") }
        guard maxAppsPerUID >= 1, maxAppsPerUID <= 1_000_000 else { throw ValidationError("--max-apps-per-uid must be between 1 and 1000000") }
        guard maxRegionsPerUID >= 1, maxRegionsPerUID <= 1_000_000 else {
            throw ValidationError("--max-regions-per-uid must be between 1 and 1000000")
        }
        guard ReplaySpeed(parsing: speed) != nil else {
            throw ValidationError(ReplaySpeed.optionProblem)
        }
        if let promptPolicy, PromptPolicy(mode: promptPolicy) == nil {
            throw ValidationError("--prompt-policy must be one of: \(PromptPolicy.validModes.joined(separator: ", "))")
        }
        if ephemeral, stateDirectory != nil { throw ValidationError("--ephemeral and --state-dir exclude each other") }
        // A day is far beyond RULES L5's minute, and keeps the nanoseconds in range.
        guard allowOnceTimeout > 0, allowOnceTimeout <= 86_400 else {
            throw ValidationError("--allow-once-timeout must be a number of seconds above 0 and at most 86400")
        }
        try validateMovement()
        if let timeZone, timeZone != "auto", !(TimeZoneID.isWellFormed(timeZone) && SystemZoneRules.knows(timeZone)) {
            throw ValidationError("--time-zone must be auto or a zone of the system's tzdata (/usr/share/zoneinfo) such as Europe/Lisbon")
        }
        guard gpxSpeed > 0, gpxSpeed <= LocationFix.maximumSpeed else {
            throw ValidationError("--gpx-speed must be a number of m/s above 0 and at most \(Int(LocationFix.maximumSpeed))")
        }
        if let gpxInterval, !(gpxInterval.isFinite && gpxInterval > 0) { throw ValidationError("--gpx-interval must be a positive number of seconds") }
        if let gnssProfile, case .failure(let error) = GNSSProfileSpec.parse(gnssProfile) {
            throw ValidationError("--gnss-profile: \(error.description)")
        }
        guard Double(seed) <= GNSSProfileSet.largestSeed else { throw ValidationError("--seed must be a whole number from 0 to 9007199254740991") }
        if androidAPI != nil, platform == nil { throw ValidationError("--android-api applies only to --platform android") }
        if let platform, case .failure(let problem) = DevicePlatform.parse(name: platform, androidAPI: androidAPI) {
            throw ValidationError(problem.description)
        }
        if let iioRate { guard iioRate > 0, iioRate <= 1000 else { throw ValidationError("--iio-rate must be above 0 and at most 1000") } }
        for address in gpsdListen {
            if let problem = GPSDListenAddress.problem(address) { throw ValidationError("--gpsd-listen: \(problem)") }
        }
        if let dbus, DBusBusAddress(parsing: dbus) == nil {
            throw ValidationError("--dbus must be system, session or a D-Bus address such as unix:path=/run/dbus/system_bus_socket")
        }
        if let gpsd {
            guard !noGPSD else { throw ValidationError("--gpsd and --no-gpsd exclude each other") }
            guard GPSDEndpoint(parsing: gpsd) != nil else { throw ValidationError("--gpsd must be HOST, HOST:PORT or [IPV6]:PORT") }
        }
    }

    func run() async throws {
        JournalLogHandler.bootstrap(level: logLevel)
        let logger = Logger(label: "sextantd")

        let environment = ProcessInfo.processInfo.environment
        let uid = UInt32(getuid())
        guard let runtime = runtimeDirectory ?? DefaultPaths.runtimeDirectory(environment: environment, uid: uid) else {
            logger.critical("cannot start: \(DefaultPaths.noRuntimeDirectory)")
            throw ExitCode(1)
        }
        let supervisor = try watchSupervisor(logger: logger)
        // Last, after the store and the sockets are gone: the starter is not there to do it.
        defer { if let supervisor, let exitRemoves { supervisor.removeIfGone(exitRemoves) } }
        let ephemeralStore = try ephemeral ? EphemeralDirectory() : nil
        defer { ephemeralStore?.remove() }
        guard let state = ephemeralStore?.path ?? stateDirectory ?? DefaultPaths.stateDirectory(environment: environment, uid: uid) else {
            logger.critical("cannot start: \(DefaultPaths.noStateDirectory)")
            throw ExitCode(1)
        }
        var configuration = DaemonConfiguration(runtimeDirectory: runtime, stateDirectory: state)
        configuration.maxAppClients = maxClients
        configuration.ioThreads = ioThreads
        if let controlGroup {
            guard let gid = ControlGroup.gid(controlGroup) else {
                logger.critical("cannot start: --control-group \(controlGroup): no such group (give a group name or a number)")
                throw ExitCode(1)
            }
            configuration.hub.controlGroup = gid
        }
        configuration.hub = hubConfiguration(controlGroup: configuration.hub.controlGroup)
        configuration.hub.storeIsEphemeral = ephemeral
        configuration.replayPath = replay
        configuration.replaySpeed = ReplaySpeed(parsing: speed) ?? .factor(1)
        configuration.replayLoop = loop
        configuration.promptPolicy = promptPolicy.flatMap { PromptPolicy(mode: $0, precise: !approximate) }
        (configuration.gpsdListen, configuration.gpsdListenAny) = (gpsdListen.compactMap(GPSDListenAddress.init(parsing:)), gpsdListenAny)
        configuration.dbus = dbus.flatMap(DBusBusAddress.init(parsing:))
        configuration.supervisor = supervisor
        (configuration.timeZoneTable, configuration.timeZone) = (timeZoneTable, timeZone)
        configuration.platform = platform.flatMap { try? DevicePlatform.parse(name: $0, androidAPI: androidAPI).get() }
        if noIIO { configuration.iioRate = nil } else if let iioRate { configuration.iioRate = iioRate }
        // gpsd by default when nothing is replayed; an explicit --gpsd runs beside a replay.
        if !noGPSD { configuration.gpsd = gpsd.flatMap(GPSDEndpoint.init(parsing:)) ?? (replay == nil ? .localDefault : nil) }

        let hangUp = HangUpSignal.ignore(logger: logger)
        defer { hangUp.cancel() }
        let daemon: SextantDaemon
        do {
            daemon = try await SextantDaemon.start(configuration: configuration, logger: logger)
        } catch {
            logger.critical("cannot start: \(error.description)")
            throw ExitCode(1)
        }
        do {
            try await daemon.run()
        } catch {
            logger.critical("stopped: \(error)")
            throw ExitCode(1)
        }
    }

    /// RULES S2, V1 and V2's numbers, each within its range.
    private func validateMovement() throws {
        let checks: [(String, Double, ClosedRange<Double>)] = [
            ("--significant-distance", significantDistance, SignificantChangeSettings.distanceRange),
            ("--significant-interval", significantInterval, SignificantChangeSettings.intervalRange),
            ("--visit-radius", visitRadius, VisitSettings.radiusRange), ("--visit-duration", visitDuration, VisitSettings.minimumStayRange),
        ]
        for (flag, value, range) in checks where !range.contains(value) {
            throw ValidationError("\(flag) must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
        }
    }

    /// The hub's settings the flags give (`--control-group` resolved by the caller).
    private func hubConfiguration(controlGroup: UInt32?) -> HubConfiguration {
        var hub = HubConfiguration()
        hub.controlGroup = controlGroup
        hub.profile = profile
        hub.gpxSpeed = gpxSpeed
        hub.gpxInterval = gpxInterval
        hub.gnssProvider = gnssProvider
        hub.gnssProfile = gnssProfile.flatMap { try? GNSSProfileSpec.parse($0).get() }
        hub.gnssSeed = seed
        hub.simulatedFlag = simulatedFlag
        hub.services.significantChanges = SignificantChangeSettings(distance: significantDistance, interval: significantInterval)
        hub.services.visits = VisitSettings(radius: visitRadius, minimumStay: visitDuration)
        hub.allowOnceBackgroundLimit = .nanoseconds(Int64(allowOnceTimeout * 1e9))
        hub.services.maxRegionsPerApp = maxRegions
        hub.maxAppsPerUID = maxAppsPerUID
        hub.services.maxRegionsPerUID = maxRegionsPerUID
        return hub
    }

    /// `--exit-with-fd`, watched from the start; `--exit-removes` checked.
    private func watchSupervisor(logger: Logger) throws -> SupervisorWatch? {
        guard let exitWithDescriptor else { return nil }
        do throws(DaemonStartError) {
            let supervisor = try SupervisorWatch(descriptor: exitWithDescriptor, logger: logger)
            if let exitRemoves { try SupervisorWatch.checkRemovable(exitRemoves) }
            return supervisor
        } catch {
            logger.critical("cannot start: \(error.description)")
            throw ExitCode(1)
        }
    }
}

extension DeviceProfile: ExpressibleByArgument {}

extension SimulatedFlag: ExpressibleByArgument {}

extension Logger.Level: @retroactive ExpressibleByArgument {}
