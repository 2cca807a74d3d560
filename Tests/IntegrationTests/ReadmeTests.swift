import Foundation
import Testing
import SextantTestSupport

/// Issue 24.5: what the README and the testing guide tell a new user to type works as written.
@Suite("The README as written")
struct ReadmeTests {
    static let documents = ["README.md", "docs/testing.md"]
    static let directories = ["Traces", "examples", "docs", "Tools", "clients", "Sources", "Tests"]

    /// The repository paths a document names: a word starting with one of `directories`.
    static func paths(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_./-])(?:\#(directories.joined(separator: "|")))/[A-Za-z0-9_./@-]*[A-Za-z0-9_/-]"#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    @Test("issue 24.5: every file the README and docs/testing.md name (Traces/…, examples/…) exists", arguments: documents)
    func namedFilesExist(document: String) throws {
        let text = try String(contentsOfFile: Repository.root + "/" + document, encoding: .utf8)
        let named = Self.paths(in: text)
        #expect(!named.isEmpty, "the paths are found")
        let missing = named.filter { !FileManager.default.fileExists(atPath: Repository.root + "/" + $0) }
        #expect(missing.isEmpty, "\(document) names files that do not exist: \(missing.sorted())")
    }

    /// Each `$ sextantctl trace info PATH` sample in the README: the path and the lines shown
    /// after it, up to the end of its block.
    static func traceInfoSamples(in text: String) -> [(path: String, lines: [String])] {
        var samples: [(path: String, lines: [String])] = []
        var current: (path: String, lines: [String])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("$ sextantctl trace info ") {
                current = (String(line.dropFirst("$ sextantctl trace info ".count)), [])
            } else if line.hasPrefix("```") || line.hasPrefix("$ ") {
                if let finished = current { samples.append(finished) }
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        return samples
    }

    @Test("issue 43.11: the README's trace info sample is what sextantctl trace info prints for that trace now")
    func traceInfoSampleIsTrue() throws {
        let text = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
        let samples = Self.traceInfoSamples(in: text)
        #expect(!samples.isEmpty, "the README shows trace info")
        for sample in samples {
            // From the checkout, as the README's reader types it: the path is printed as given.
            let result = try run(["/bin/sh", "-c", #"cd "$0" && exec "$1" trace info "$2""#, Repository.root, Binaries.sextantctl, sample.path])
            #expect(result.status == 0, "\(sample.path): \(result.stderr)")
            let printed = result.stdout.split(separator: "\n").map(String.init)
            #expect(printed == sample.lines, "README's sample of \(sample.path) differs from the command's output:\n\(result.stdout)")
        }
    }

    /// The lines the README shows after `$ sextantctl status`, up to the next command.
    static func statusSample(in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "$ sextantctl status") else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("$ ") && !$0.hasPrefix("```") })
    }

    /// What each line of `sextantctl status` is: `sextantd` for the first, else its label.
    static func statusLabels(_ lines: [String]) -> [String] {
        lines.map { $0.hasPrefix("sextantd ") ? "sextantd" : String($0.prefix { $0 != ":" }) }
    }

    @Test("issue 43.9: the README's status sample has the lines sextantctl status prints, in its order, for a daemon replaying the walk")
    func statusSampleIsTrue() throws {
        let text = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
        let sample = Self.statusSample(in: text)
        #expect(!sample.isEmpty, "the README shows status")
        let daemon = try DaemonHarness(arguments: ["--replay", Repository.root + "/Traces/demo-walk.jsonl", "--no-iio"])
        try daemon.waitForStatus("the walk's first fix") { $0["location"].map { !$0.isNull } ?? false }
        let printed = try daemon.ctl(["status"]).stdout.split(separator: "\n").map(String.init)
        #expect(Self.statusLabels(sample) == Self.statusLabels(printed), "README's status sample differs from status:\n\(printed.joined(separator: "\n"))")
    }

    @Test("issue 43.9: SEXTANT_PARSE_ONLY=1, which check-docs.py runs the docs' command lines with, parses and validates and runs nothing")
    func parseOnlyRunsNothing() throws {
        let scratch = try TemporaryDirectory("parse-only")
        var environment = ProcessInfo.processInfo.environment
        environment["SEXTANT_PARSE_ONLY"] = "1"
        let runtime = scratch.file("run")
        let status = try run([Binaries.sextantctl, "status", "--runtime-dir", runtime], environment: environment)
        #expect(status.status == 0 && status.stdout == "parsed: status\n", "no daemon is asked: \(status.stdout)\(status.stderr)")
        let wrong = try run([Binaries.sextantctl, "prompts", "answer", "1", "allowOnce", "--precize"], environment: environment)
        #expect(wrong.status == 64 && wrong.stderr.contains("Unknown option '--precize'"), "\(wrong.stderr)")
        // Under `timeout`: a sextantd that did start (no parse-only mode) is a failure, not a hang.
        let daemon = try run(["/usr/bin/timeout", "10", Binaries.sextantd, "--runtime-dir", runtime, "--state-dir", scratch.file("state"), "--no-gpsd"], environment: environment)
        #expect(daemon.status == 0, "status \(daemon.status): \(daemon.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runtime) && !FileManager.default.fileExists(atPath: scratch.file("state")), "sextantd started nothing")
        let badSpeed = try run([Binaries.sextantd, "--replay", "x.jsonl", "--speed", "0"], environment: environment)
        #expect(badSpeed.status == 64 && badSpeed.stderr.contains("--speed"), "validated as at a start: \(badSpeed.stderr)")
    }

    @Test("issue 24.5: the README names no trace that is not in the repository, no install path of one PREFIX, and every runtime library")
    func noTrapsInTheReadme() throws {
        let text = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
        for command in text.split(separator: "\n") where command.contains("replay start") || command.contains("--replay") {
            for word in command.split(separator: " ") where [".gpx", ".jsonl", ".log", ".nmea"].contains(where: word.hasSuffix) {
                let path = word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'`"))
                #expect(path.contains("$") || FileManager.default.fileExists(atPath: Repository.root + "/" + path), "\(command)")
            }
        }
        #expect(!text.contains("/usr/local/share/sextant"), "installed paths depend on PREFIX")
        #expect(!text.contains("demo (about 15 s)"), "the first run builds for minutes")
        #expect(text.contains("libsystemd0"), "sextantd links libsystemd (sd-bus)")
    }
}
