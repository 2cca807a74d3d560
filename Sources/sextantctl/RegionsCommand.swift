import ArgumentParser
import SextantProtocol

/// `regions list|add|remove`: any app's regions (geofences), as a test sets up state
/// (sextant-rules(7) R1–R12).
struct RegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions", abstract: "List, add and remove apps' monitored regions (geofences).",
        subcommands: [List.self, Add.self, Remove.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the regions monitored, with each one's state.")
        @OptionGroup var common: CommonOptions
        @Option(help: "Only this app's regions.", completion: Completions.appIDs) var app: String?
        func run() throws {
            try reporting {
                let request = try common.request(RegionsList.self, app.map { ["app": .string($0)] } ?? [:])
                common.output(try common.call(request)) { entries in
                    Text.table(
                        ["APP", "IDENTIFIER", "LAT", "LON", "RADIUS", "DWELL", "STATE"],
                        entries.map { e in
                            [
                                e.app, e.region.identifier, Text.plain(.double(e.region.latitude)), Text.plain(.double(e.region.longitude)),
                                Text.plain(.double(e.region.radius)), Text.plain(e.region.loiteringDelay.map { .double($0) }),
                                e.region.state?.rawValue ?? "-",
                            ]
                        })
                }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Monitor a circular region for an app, whatever its authorization; the same identifier replaces it.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The region's identifier.") var identifier: String
        @Option(help: "The app it is monitored for.", completion: Completions.appIDs) var app: String
        @Option(help: "The centre's latitude, degrees.") var lat: Double
        @Option(help: "The centre's longitude, degrees.") var lon: Double
        @Option(help: "Metres, 1 to 100000.") var radius: Double
        @Option(help: "Seconds inside before a dwell event.") var loiteringDelay: Double?
        @Option(help: "Metres beyond the radius before a fix is outside (default 20).") var hysteresis: Double?
        @Flag(help: "No enter events.") var noEntry = false
        @Flag(help: "No exit events.") var noExit = false
        @Flag(help: "Tell the app the first state decided.") var initialState = false
        func run() throws {
            try reporting {
                let region = WireRegion(
                    identifier: identifier, latitude: lat, longitude: lon, radius: radius, notifyOnEntry: !noEntry, notifyOnExit: !noExit,
                    loiteringDelay: loiteringDelay, notifyInitialState: initialState, hysteresis: hysteresis)
                let request = try common.request(RegionsAdd.self, RegionsAdd(app: app, region: region).params)
                common.output(try common.call(request)) { _ in "\(app): monitoring \(identifier)" }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop monitoring an app's region.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The region's identifier.") var identifier: String
        @Option(help: "The app it is monitored for.", completion: Completions.appIDs) var app: String
        func run() throws {
            try reporting {
                let request = try common.request(RegionsRemove.self, ["app": .string(app), "identifier": .string(identifier)])
                common.output(try common.call(request)) { result in
                    result.removed ? "\(app): stopped monitoring \(identifier)" : "\(app) monitors no region \(identifier)"
                }
            }
        }
    }
}
