import ArgumentParser
import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

extension TraceCommand {
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plot",
            abstract: "Draw a trace: its path on a map and timelines of orientation, posture and GPS state.",
            discussion: """
                OUT ends in .svg (an SVG picture) or .html (one self-contained page with the picture \
                the trace's figures and event list, interactive: hover, zoom, pan). With --events, the NDJSON of `watch --json`, it also shows \
                what each app received: reduced fixes, fixes withheld, denied stretches. With --regions or \
                --regions-from-daemon it draws the regions on the map and each enter, exit and dwell where the \
                daemon's engine decides it, on the map and on a regions lane; a trace with magnetometer or compass \
                samples gets a heading lane (magnetic, and true where a fix is known). With --gnss-profile (or a \
                recording's own gnss.profile lines) it draws the reported track over the true one, and the outages on the GPS lane. \
                With --time-zone-table it marks where the device's time zone changes, on the track and on a time zone lane.
                """)
        @Argument(help: "The trace file.", completion: .file()) var path: String
        @Option(name: .shortAndLong, help: "The picture to write: .svg or .html (replaced if it exists).", completion: .file()) var output: String
        @Option(help: ArgumentHelp("Events to overlay: the NDJSON of `sextantctl watch --json`.", valueName: "file"), completion: .file()) var events: String?
        @Option(
            help: ArgumentHelp(
                "A basemap for the .html page: a tile URL template such as https://tile.example.org/{z}/{x}/{y}.png (off by default: the page loads nothing).",
                valueName: "url-template")) var tiles: String?
        @Option(
            help: ArgumentHelp(
                "Regions to draw, with their crossings as the daemon decides them: a JSON list of regions as regions.add takes them (the output of `regions list --json`).",
                valueName: "file"), completion: .file()) var regions: String?
        @Flag(help: "Draw the regions the running daemon monitors (regions.list), with their crossings.") var regionsFromDaemon = false
        @Option(help: "Only this app's regions.") var app: String?
        @Option(name: .customLong("runtime-dir"), help: ArgumentHelp("The daemon's runtime directory, for --regions-from-daemon.", valueName: "dir"), completion: .directory)
        var runtimeDirectory: String?
        @Option(
            name: .customLong("gnss-profile"),
            help: ArgumentHelp(
                "Apply a GNSS profile to the trace's fixes as the daemon would (PRESET[,EVENT...], e.g. urban,tunnel@60+30) and draw the true track beside the reported one.",
                valueName: "spec")) var gnssProfile: String?
        @Option(help: ArgumentHelp("The profile's seed: the same seed gives the daemon's fixes (default 1, as the daemon's --seed).", valueName: "n"))
        var seed: UInt64?
        @OptionGroup var zoneMarks: ZoneMarkOptions
        @OptionGroup var options: FileOptions

        func validate() throws {
            if regions != nil, regionsFromDaemon { throw ValidationError("--regions and --regions-from-daemon are two sources of regions: give one") }
            if app != nil, regions == nil, !regionsFromDaemon { throw ValidationError("--app chooses among regions: give --regions FILE or --regions-from-daemon") }
            if seed != nil, gnssProfile == nil { throw ValidationError("--seed is the GNSS profile's: give --gnss-profile too") }
            if let seed, Double(seed) > GNSSProfileSet.largestSeed { throw ValidationError("--seed must be a whole number from 0 to 9007199254740991") }
            _ = try profile()
        }

        /// The GNSS profile asked for, read as the daemon reads `--gnss-profile`.
        func profile() throws -> PlotGNSSProfile? {
            guard let gnssProfile else { return nil }
            switch GNSSProfileSpec.parse(gnssProfile) {
            case .success(let spec): return PlotGNSSProfile(spec: spec, seed: seed ?? PlotGNSSProfile.defaultSeed)
            case .failure(let problem): throw ValidationError("--gnss-profile: \(problem)")
            }
        }

        /// The regions to draw: from the file or the daemon, one app's where asked.
        func plotRegions() throws -> [PlotRegion] {
            var found: [PlotRegion] = []
            if let regions {
                do {
                    found = try PlotRegion.parse(try TraceLoader.contents(ofFile: regions), path: regions)
                } catch {
                    throw Failure("\(error)")
                }
            } else if regionsFromDaemon {
                var common = CommonOptions()
                common.runtimeDirectory = runtimeDirectory
                found = try common.call(RegionsList(app: app)).map(PlotRegion.init)
            }
            return app.map { app in found.filter { $0.app == app } } ?? found
        }

        func run() throws {
            try reporting {
                let lower = output.lowercased()
                guard lower.hasSuffix(".svg") || lower.hasSuffix(".html") || lower.hasSuffix(".htm") else {
                    throw Failure("\(output): unknown picture extension: expected .svg or .html")
                }
                if tiles != nil, lower.hasSuffix(".svg") {
                    throw Failure("\(output): --tiles draws a basemap on the .html page only; an SVG is drawn offline")
                }
                let (trace, _) = try options.load(path)
                let regions = try plotRegions()
                let timeZones = try zoneMarks.timeZones()
                var overlay = PlotEvents()
                if let events {
                    do {
                        overlay = try PlotEvents.parse(try TraceLoader.contents(ofFile: events), path: events)
                    } catch let error as TraceError {
                        throw Failure("\(error)")
                    } catch {
                        throw Failure("\(error)")
                    }
                }
                do {
                    let basemap = try tiles.map { template throws(TraceExportError) in try TileTemplate(template) }
                    let plot = try TracePlot(trace: trace, title: URL(fileURLWithPath: path).lastPathComponent, events: overlay, tiles: basemap, regions: regions, gnss: try profile(), timeZones: timeZones)
                    try AtomicFile.write(lower.hasSuffix(".svg") ? plot.svg() : plot.html(), to: output)
                } catch {
                    throw Failure("\(error)")
                }
                options.output(["output": .string(output), "width": .int(Int64(TracePlot.width)), "height": .int(Int64(TracePlot.height))]) { _ in
                    "\(output): \(TracePlot.width)×\(TracePlot.height)"
                }
            }
        }
    }
}
