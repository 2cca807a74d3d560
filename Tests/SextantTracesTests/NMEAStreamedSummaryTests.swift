import Foundation
import SextantCore
import SextantProtocol
@testable import SextantTraces
import SextantTestSupport
import Testing

/// `sextantctl trace info` on an NMEA log reads it as a stream (`NMEAReader.stream`,
/// `NMEAStreamedTimeline`): the same samples, start, skipped lines and summary as the log
/// read whole (`NMEAReader.read`), which the reference tests hold to gpsd's answers.
@Suite("NMEA logs read as a stream")
struct NMEAStreamedSummaryTests {
    static let repositoryLogs = #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/gpsd"
    static let sharedLogs = "/work/shared/traces/gpsd"

    static func logs(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { directory + "/" + $0 }
    }

    /// The files the test writes, removed with the suite's instance at the end of the test.
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("streamed") }

    func write(_ lines: [String]) throws -> String { try scratch.write(UUID().uuidString + ".nmea", lines.joined(separator: "\n") + "\n") }

    /// Streamed and whole, sample by sample and summed up; streamed in one pass and in two
    /// (a limit of 0 or 3 epochs held before the first date).
    func expectSame(_ path: String) throws {
        let whole = try TraceLoader.load(path: path)
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        for limit in [4_096, 3, 0] {
            var streamed: [TraceSample] = []
            let header = try NMEAReader.stream(fd: fd, path: path, pendingLimit: limit) { streamed.append($0) }
            #expect(streamed == whole.samples, "\(path), limit \(limit)")
            #expect(header.start == whole.start && header.skipped == whole.skipped, "\(path), limit \(limit)")
        }
        let (summary, format) = try TraceLoader.summarize(path: path)
        #expect(format == .nmea)
        #expect(summary == TraceSummary(whole), "\(path)")
    }

    @Test("Every log of gpsd's suite (Traces/gpsd and the shared copy) sums up as a stream exactly as read whole")
    func everyGPSDLog() throws {
        let logs = Self.logs(in: Self.repositoryLogs) + Self.logs(in: Self.sharedLogs)
        #expect(Self.logs(in: Self.repositoryLogs).count >= 30)
        for path in logs { try expectSame(path) }
    }

    @Test("Epochs before the first date are dated backwards from it, across midnight; a later ZDA resets the day")
    func datedLater() throws {
        let path = try write([
            nmea("$GPGGA,235958.00,4807.038,N,01131.000,E,0,00,,,M,,M,,"),
            nmea("$GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GPRMC,000001.00,A,4807.038,N,01131.000,E,1.0,10.0,010126,,,A"),
            nmea("$GPGGA,000002.00,4807.038,N,01131.000,E,0,00,,,M,,M,,"),
            nmea("$GPZDA,000003.00,05,01,2026,00,00"),
            nmea("$GPGGA,000003.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ])
        try expectSame(path)
    }

    @Test("A log without any date is dated by its `# Date:` comment, even one at its end; no fix at all is one noFix")
    func undated() throws {
        let gga = nmea("$GPGGA,101010.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        for lines in [[gga, "# Date: 2019-03-14"], [nmea("$GPGGA,,,,,,0,,,,M,,M,,"), gga], [nmea("$GPGGA,101010.00,,,,,0,,,,M,,M,,")]] {
            let path = try write(lines)
            try expectSame(path)
        }
    }

    @Test("Bad input: a file without a sentence fails with its file and first line, streamed as whole")
    func noSentence() throws {
        let path = try write(["# a comment", "", "hello", "$GPGGA,1*00"])
        #expect(throws: TraceLoadError.invalid(TraceError(path: path, line: 3, reason: "not an NMEA 0183 log: no sentence ($…*hh) in it with a good checksum (1 bad)"))) {
            try TraceLoader.summarize(path: path)
        }
    }
}
