import ArgumentParser
import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

/// `sextantctl trace …`: work on trace files alone, without a daemon.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Convert and inspect trace files (Sextant JSONL, NMEA 0183, GPX 1.1); no daemon needed.",
        subcommands: [Convert.self, Info.self])

    /// Options of both subcommands.
    struct FileOptions: ParsableArguments {
        @Option(
            name: .customLong("gpx-speed"),
            help: ArgumentHelp("Speed (m/s) at which GPX routes and waypoints without times are walked.", valueName: "m/s"))
        var gpxSpeed: Double = GPXReader.defaultSpeed

        @Flag(help: "Print JSON (one object) instead of text.")
        var json = false

        func validate() throws {
            guard gpxSpeed.isFinite, gpxSpeed > 0 else { throw ValidationError("--gpx-speed must be a positive number of m/s") }
        }

        /// Reads a trace of any format, all or nothing, and says which format it was.
        func load(_ path: String) throws -> (Trace, TraceFormat) {
            do {
                return try TraceLoader.loadDetectingFormat(path: path, options: TraceLoadOptions(gpxSpeed: gpxSpeed))
            } catch {
                throw Failure(error.description)
            }
        }

        func output(_ value: JSONValue, human: (JSONValue) -> String) {
            print(json ? value.serialized() : human(value))
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert a trace (NMEA 0183, GPX 1.1 or Sextant JSONL) to a Sextant JSONL trace.",
            discussion: """
                The input's format is taken from its extension (.nmea/.log, .gpx, .jsonl), else \
                from its first bytes. Lines an NMEA reader skips are counted and reported; a GPX \
                or JSONL file with a bad line is not converted.
                """)
        @Argument(help: "The trace to read.") var input: String
        @Argument(help: "The Sextant JSONL trace to write (replaced if it exists).") var output: String
        @OptionGroup var options: FileOptions

        func run() throws {
            try reporting {
                let (trace, format) = try options.load(input)
                do {
                    try Data(SextantTraceFormat.write(trace).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw Failure("\(output): \((error as NSError).localizedDescription)")
                }
                let summary = TraceSummary(trace)
                let result: JSONValue = [
                    "input": .string(input), "output": .string(output), "format": .string(format.rawValue),
                    "samples": .int(Int64(trace.samples.count)), "duration": .double(summary.duration),
                    "skipped": TraceInfoJSON.counts(summary.skipped),
                ]
                options.output(result) { r in
                    var text = "\(output): \(Text.plain(r["samples"])) samples over \(Text.plain(r["duration"])) s from \(format.rawValue) \(input)"
                    if !summary.skipped.isEmpty { text += "\nskipped: " + TraceInfoJSON.line(summary.skipped) }
                    return text
                }
            }
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a trace's time span, samples by kind, bounding box and skipped lines.")
        @Argument(help: "The trace file.") var path: String
        @OptionGroup var options: FileOptions

        func run() throws {
            try reporting {
                let (trace, format) = try options.load(path)
                let summary = TraceSummary(trace)
                options.output(TraceInfoJSON.object(summary, path: path, format: format)) { _ in
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
                    if let profile = summary.profile { lines.append("Profile:   \(profile.rawValue)") }
                    lines.append("Skipped:   " + (summary.skipped.isEmpty ? "none" : TraceInfoJSON.line(summary.skipped)))
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
            "path": .string(path), "format": .string(format.rawValue), "start": .string(s.start.rfc3339), "end": .string(s.end.rfc3339),
            "duration": .double(s.duration), "samples": counts(s.samples), "gps": counts(s.gpsStates), "skipped": counts(s.skipped),
            "profile": s.profile.map { .string($0.rawValue) } ?? .null, "boundingBox": .null,
        ]
        if let b = s.boundingBox {
            o["boundingBox"] = ["south": .double(b.south), "west": .double(b.west), "north": .double(b.north), "east": .double(b.east)]
        }
        return .object(o)
    }

    static func counts(_ counts: [String: Int]) -> JSONValue { .object(counts.mapValues { .int(Int64($0)) }) }

    /// `bad checksum 2, not NMEA 1`, in name order.
    static func line(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
