import ArgumentParser
import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

/// The options of `trace route` and `location route`: the waypoints and how to walk them.
struct RouteOptions: ParsableArguments {
    // Southern and western coordinates start with "-", which the parser would take for
    // options: the points are read from every unrecognised word, and checked in validate.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Two or more points, LAT,LON or LAT,LON,ALT (degrees, metres).", valueName: "lat,lon"))
    var points: [String] = []

    @Option(help: ArgumentHelp("Speed along the route, m/s.", valueName: "m/s")) var speed: Double = GPXReader.defaultSpeed
    @Option(help: ArgumentHelp("Seconds of travel between fixes (default 1).", valueName: "s")) var interval: Double?
    @Option(help: ArgumentHelp("Metres of path between fixes, instead of --interval.", valueName: "m")) var distance: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Horizontal accuracy of every fix, metres.", valueName: "m"))
    var accuracy: Double = LocationFix.defaultHorizontalAccuracy
    @Option(help: ArgumentHelp("Time of the first fix, RFC 3339 (default: now).", valueName: "time")) var start: String?
    @Option(help: ArgumentHelp("Add a compass: course (its true heading follows the way, the phone held pointing along it).", valueName: "course"))
    var heading: RouteHeadingChoice?

    func validate() throws {
        guard interval == nil || distance == nil else { throw ValidationError("give --interval or --distance, not both") }
        try Validated.accuracy(accuracy, unit: "metres")
        _ = try waypoints()
        if let start, Timestamp(rfc3339: start) == nil { throw ValidationError("--start must be an RFC 3339 time, not \(start)") }
    }

    func waypoints() throws -> [RouteWaypoint] {
        try points.enumerated().map { index, text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
                throw ValidationError("point \(index + 1) \"\(text)\" is not LAT,LON or LAT,LON,ALT (e.g. 48.8583,2.2945)")
            }
            return RouteWaypoint(latitude: parts[0]!, longitude: parts[1]!, altitude: parts.count == 3 ? parts[2] : nil)
        }
    }

    /// The route as a trace, or a failure saying what is wrong with it.
    func trace(now: Timestamp) throws -> Trace {
        let spacing: RouteSpacing = distance.map { .distance(metres: $0) } ?? .interval(seconds: interval ?? 1)
        let startTime = start.flatMap { Timestamp(rfc3339: $0) } ?? now
        let planner = RoutePlanner(
            waypoints: try waypoints(), speed: speed, spacing: spacing, start: startTime, horizontalAccuracy: accuracy, heading: heading?.heading)
        do {
            return try planner.trace()
        } catch {
            throw Failure("\(error)")
        }
    }
}

/// `--heading`'s values.
struct RouteHeadingChoice: ExpressibleByArgument {
    let heading: RouteHeading

    init?(argument: String) {
        guard let heading = RouteHeading(rawValue: argument) else { return nil }
        self.heading = heading
    }

    static var allValueStrings: [String] { RouteHeading.allCases.map(\.rawValue) }
}

extension Trace {
    /// `12 fixes` or `12 fixes and 12 headings`, for a command's report.
    var routeCounts: (fixes: Int, headings: Int, text: String) {
        let fixes = locations.count, headings = samples.count - fixes
        return (fixes, headings, headings > 0 ? "\(fixes) fixes and \(headings) headings" : "\(fixes) fixes")
    }
}

/// Now, to the second: a route's fixes then fall on whole seconds.
func wholeSecondNow() -> Timestamp {
    Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970.rounded(.down)) * 1_000_000_000)
}

extension TraceCommand {
    struct Route: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route",
            abstract: "Write a trace that moves along great circles through the given points.",
            discussion: """
                A fix every --interval seconds (or --distance metres) of the path at --speed, one \
                at every point given, and one at the end; each carries the speed and its course. \
                The output's format is chosen by its extension or --to.
                """)
        @OptionGroup var route: RouteOptions
        @Option(name: .shortAndLong, help: "The trace to write (a regular file is replaced; a device, FIFO or /dev/stdout written to).", completion: .file()) var output: String
        @Option(help: ArgumentHelp("Output format: sextant, gpx, geojson, kml, nmea (default: by extension).", valueName: "format"), completion: Completions.traceFormats) var to: String?
        @Flag(help: "Print JSON (one object) instead of text.") var json = false

        func run() throws {
            try reporting {
                let format: TraceExportFormat
                do { format = try TraceExportFormat.choose(path: output, named: to) } catch { throw Failure("\(error)") }
                let trace = try route.trace(now: wholeSecondNow())
                do { try TraceExporter.write(trace, as: format, to: output) } catch { throw Failure("\(error)") }
                let motion = TraceMotion(trace)
                let counts = trace.routeCounts
                let result: JSONValue = [
                    "output": .string(output), "format": .string(format.rawValue), "samples": .int(Int64(trace.samples.count)),
                    "fixes": .int(Int64(counts.fixes)), "headings": .int(Int64(counts.headings)),
                    "duration": .double(trace.duration), "distance": .double(motion.distance),
                ]
                let text = String(format: "%@: %@ over %.1f m, %.3f s (%@)", output, counts.text, motion.distance, trace.duration, format.rawValue)
                json ? printJSON(result) : say(text)
            }
        }
    }
}

extension LocationCommand {
    struct Route: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route",
            abstract: "Move the device along a route now, as a replay (replaces a running one).",
            discussion: """
                The route is written as a Sextant trace to a private temporary file and played \
                with replay.start at real time; the file is removed once the daemon has loaded it. \
                Stop it with `sextantctl replay stop`.
                """)
        @OptionGroup var common: CommonOptions
        @OptionGroup var route: RouteOptions
        @Flag(help: "Start again at the end.") var loop = false

        func run() throws {
            try reporting {
                let trace = try route.trace(now: wholeSecondNow())
                let directory = try privateDirectory()
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let path = directory + "/route.jsonl"
                do { try TraceExporter.write(trace, as: .sextant, to: path) } catch { throw Failure("\(error)") }
                // replay.start answers once the trace is loaded: the file may go after it.
                let result = try common.call(ReplayStart(path: path, speed: .factor(1), loop: loop))
                let motion = TraceMotion(trace)
                common.output(result) { _ in
                    String(format: "Playing a route of %@ over %.1f m, %.1f s%@", trace.routeCounts.text, motion.distance, trace.duration, loop ? ", looping" : "")
                }
            }
        }

        /// A new directory only this user can enter, for the route's file.
        private func privateDirectory() throws -> String {
            var template = Array((URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("sextantctl-route.XXXXXX").path).utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                throw Failure("cannot create a temporary directory: \(String(cString: strerror(errno)))")
            }
            return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
