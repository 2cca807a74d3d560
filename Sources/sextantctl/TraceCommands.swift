import ArgumentParser
import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

extension GnssProvider: ExpressibleByArgument {}

/// `sextantctl trace …`: work on trace files alone, without a daemon.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Convert, inspect, draw and plan trace files (Sextant JSONL, NMEA 0183, GPX 1.1, GeoJSON, KML; Android GnssLogger recordings in); no daemon needed.",
        subcommands: [Convert.self, Info.self, Route.self, Plot.self])

    /// Options of both subcommands.
    struct FileOptions: ParsableArguments {
        @Option(
            name: .customLong("gpx-speed"),
            help: ArgumentHelp("Speed (m/s) at which GPX routes and waypoints without times are walked.", valueName: "m/s"))
        var gpxSpeed: Double = GPXReader.defaultSpeed

        @Option(
            name: .customLong("interval"),
            help: ArgumentHelp("Seconds between fixes interpolated along GPX routes and waypoints without times (default: the points alone).", valueName: "s"))
        var gpxInterval: Double?

        @Option(
            name: .customLong("gnss-provider"),
            help: ArgumentHelp("Whose fixes a GnssLogger recording plays: gps, flp, nlp, any, or auto (GPS, else FLP, else NLP).", valueName: "provider"))
        var gnssProvider: GnssProvider = .automatic

        @Flag(help: "Print JSON (one object) instead of text.")
        var json = false

        func validate() throws {
            guard gpxSpeed.isFinite, gpxSpeed > 0 else { throw ValidationError("--gpx-speed must be a positive number of m/s") }
            if let gpxInterval, !(gpxInterval.isFinite && gpxInterval > 0) { throw ValidationError("--interval must be a positive number of seconds") }
        }

        /// The options the trace readers take.
        var loadOptions: TraceLoadOptions { TraceLoadOptions(gpxSpeed: gpxSpeed, gpxInterval: gpxInterval, gnssProvider: gnssProvider) }

        /// Reads a trace of any format, all or nothing, and says which format it was.
        func load(_ path: String) throws -> (Trace, TraceFormat) {
            do {
                return try TraceLoader.loadDetectingFormat(path: path, options: loadOptions)
            } catch {
                throw Failure("\(error)")
            }
        }

        /// What `trace info` shows, with the trace read as a stream where it can be.
        func summarize(_ path: String) throws -> (TraceSummary, TraceFormat) {
            do {
                return try TraceLoader.summarize(path: path, options: loadOptions)
            } catch {
                throw Failure("\(error)")
            }
        }

        func output(_ value: JSONValue, human: (JSONValue) -> String) {
            json ? printJSON(value) : say(human(value))
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert a trace between Sextant JSONL, GPX 1.1, GeoJSON, KML and NMEA 0183.",
            discussion: """
                The input's format is taken from its extension (.nmea/.log, .gpx, .jsonl, .geojson, \
                .kml), else from its first bytes (a GnssLogger recording by its header). The output's from its extension (.jsonl/.trace, .gpx, \
                .geojson, .kml, .nmea/.log) or --to; an unknown one is an error. Lines an NMEA \
                reader skips are counted and reported; a GPX or JSONL file with a bad line is not \
                converted. The input is read as a stream (a JSONL file is checked whole first) and \
                a regular output file is written through a bounded buffer to a temporary file \
                beside it, renamed into place when complete: whole or not at all. A device, a FIFO \
                or standard output (/dev/stdout) is written to; a directory or socket is refused.
                """)
        @Argument(help: "The trace to read.", completion: .file()) var input: String
        @Argument(help: "The trace to write (a regular file is replaced; a device, FIFO or /dev/stdout written to).", completion: .file()) var output: String
        @Option(help: ArgumentHelp("Output format: sextant, gpx, geojson, kml, nmea (default: by extension).", valueName: "format"), completion: Completions.traceFormats) var to: String?
        @OptionGroup var options: FileOptions

        func run() throws {
            try reporting {
                let outputFormat: TraceExportFormat
                do { outputFormat = try TraceExportFormat.choose(path: output, named: to) } catch { throw Failure("\(error)") }
                let conversion: TraceConversion
                do {
                    conversion = try TraceConversion.convert(
                        input: input, output: output, as: outputFormat, options: options.loadOptions)
                } catch {
                    throw Failure("\(error)")
                }
                let format = conversion.format, leftOut = conversion.leftOut
                let result: JSONValue = [
                    "input": .string(input), "output": .string(output), "format": .string(format.name), "to": .string(outputFormat.rawValue),
                    "leftOut": .int(Int64(leftOut)),
                    "samples": .int(Int64(conversion.samples)), "duration": .double(conversion.duration),
                    "skipped": TraceInfoJSON.counts(conversion.skipped),
                ]
                options.output(result) { r in
                    var text = "\(output): \(Text.plain(r["samples"])) samples over \(Text.plain(r["duration"])) s from \(format.rawValue) \(input) as \(outputFormat.rawValue)"
                    if leftOut > 0 { text += "\n\(leftOut) samples left out (\(outputFormat.rawValue) holds \(outputFormat == .nmea ? "locations and compass headings" : "locations") only)" }
                    if !conversion.skipped.isEmpty { text += "\nskipped: " + TraceInfoJSON.line(conversion.skipped) }
                    return text
                }
            }
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Show a trace's time span, samples by kind, bounding box and skipped lines.")
        @Argument(help: "The trace file.", completion: .file()) var path: String
        @OptionGroup var options: FileOptions
        @OptionGroup var zones: ZoneMarkOptions

        func run() throws {
            try reporting {
                let (summary, format) = try options.summarize(path)
                let decisions = zones.table == nil ? nil : try zones.decisions(try options.load(path).0)
                var object = TraceInfoJSON.object(summary, path: path, format: format).objectValue ?? [:]
                if let decisions { object["timeZones"] = ZoneMarkOptions.json(decisions) }
                options.output(.object(object)) { _ in
                    var lines = [
                        "\(path) (\(format.rawValue))",
                        "Start:     \(summary.start.rfc3339)",
                        "End:       \(summary.end.rfc3339)",
                        "Duration:  \(String(format: "%.3f", summary.duration)) s",
                        "Samples:   " + (summary.samples.isEmpty ? "none" : TraceInfoJSON.line(summary.samples)),
                    ]
                    if !summary.gpsStates.isEmpty { lines.append("GPS:       " + TraceInfoJSON.line(summary.gpsStates)) }
                    if let b = summary.boundingBox {
                        lines.append(String(format: "Box:       %.6f, %.6f … %.6f, %.6f (S, W … N, E)", b.south, b.west, b.north, b.east))
                    }
                    lines += TraceInfoJSON.motionLines(summary.motion)
                    if let profile = summary.profile { lines.append("Profile:   \(profile.rawValue)") }
                    lines.append("Skipped:   " + (summary.skipped.isEmpty ? "none" : TraceInfoJSON.line(summary.skipped)))
                    if let decisions { lines.append(ZoneMarkOptions.line(decisions)) }
                    return lines.joined(separator: "\n")
                }
            }
        }
    }
}

/// The JSON form of `trace info`.
enum TraceInfoJSON {
    static func object(_ s: TraceSummary, path: String, format: TraceFormat) -> JSONValue {
        var o: [String: JSONValue] = [
            "path": .string(path), "format": .string(format.name), "start": .string(s.start.rfc3339), "end": .string(s.end.rfc3339),
            "duration": .double(s.duration), "samples": counts(s.samples), "gps": counts(s.gpsStates), "skipped": counts(s.skipped),
            "profile": s.profile.map { .string($0.rawValue) } ?? .null, "boundingBox": .null,
        ]
        if let b = s.boundingBox {
            o["boundingBox"] = ["south": .double(b.south), "west": .double(b.west), "north": .double(b.north), "east": .double(b.east)]
        }
        o["motion"] = motion(s.motion)
        return .object(o)
    }

    static func counts(_ counts: [String: Int]) -> JSONValue { .object(counts.mapValues { .int(Int64($0)) }) }

    /// `bad checksum 2, not NMEA 1`, in name order.
    static func line(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
