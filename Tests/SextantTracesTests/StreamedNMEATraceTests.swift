import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantTraces

/// An NMEA log read as it plays (issue 12 point 1): checked whole first, then decoded a
/// block at a time from checkpoints, with exactly the samples the log read whole gives
/// (`NMEAReader.read`, which the reference tests hold to gpsd's answers).
@Suite("Streamed NMEA replays")
struct StreamedNMEATraceTests {
    static let repository = #filePath.components(separatedBy: "/Tests/")[0]

    static func logs() -> [String] {
        let directories = [repository + "/Traces/gpsd", "/work/shared/traces/gpsd", repository + "/Fuzz/Corpus/fuzz-nmea"]
        return directories.flatMap { directory in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasSuffix(".log") || $0.hasSuffix(".nmea") }.sorted().map { directory + "/" + $0 }
        }
    }

    /// The files the test writes, removed with the suite's instance at the end of the test.
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("streamed") }

    func write(_ lines: [String]) throws -> String { try scratch.write(UUID().uuidString + ".nmea", lines.joined(separator: "\n") + "\n") }

    /// Every sample, asked in order, backwards and by seeking, is the whole read's; with
    /// checkpoints after every sample (each line's state must be complete) and after
    /// 1,024, in one pass and in two (epochs before the first date past the limit).
    func expectSame(_ path: String, blockSizes: [Int] = [1, 7, StreamedNMEATrace.blockSize]) throws {
        let whole = try TraceLoader.load(path: path)
        for blockSize in blockSizes {
            for limit in [4_096, 3, 0] {
                let label = "\(path), block \(blockSize), limit \(limit)"
                let streamed = try StreamedNMEATrace(path: path, pendingLimit: limit, blockSize: blockSize)
                #expect(streamed.sampleCount == whole.samples.count, "\(label)")
                #expect(streamed.start == whole.start && streamed.durationNanoseconds == whole.durationNanoseconds, "\(label)")
                #expect(streamed.skipped == whole.skipped, "\(label)")
                let forwards = try (0..<streamed.sampleCount).map { i throws(TraceError) in try streamed.traceSample(at: i) }
                #expect(forwards == whole.samples, "\(label)")
                for i in whole.samples.indices.reversed() where i % 5 == 0 {
                    #expect(try streamed.traceSample(at: i) == whole.samples[i], "\(label) sample \(i)")
                }
                let last = whole.durationNanoseconds
                for offset in [Int64(-1), 0, 1, last / 3, last / 2 + 7, last - 1, last, last + 1] {
                    #expect(try streamed.firstIndex(atOrAfter: offset) == whole.firstIndex(atOrAfter: offset), "\(label) offset \(offset)")
                }
            }
        }
    }

    @Test("Every log of gpsd's suite and the fuzz corpus plays streamed exactly as read whole, sample for sample")
    func everyLog() throws {
        let logs = Self.logs()
        #expect(logs.count >= 31)
        for path in logs { try expectSame(path) }
    }

    @Test("A long log crossing midnight, with a late first date and a gap, plays across many blocks as read whole")
    func longLog() throws {
        let path = try write(Self.longLog(epochs: 5_000))
        try expectSame(path, blockSizes: [100, StreamedNMEATrace.blockSize])
        let streamed = try #require(try TraceLoader.openForReplay(path: path) as? StreamedNMEATrace)
        #expect(streamed.blocks.count > 3 && streamed.blocks.count <= 5)
    }

    @Test("Epochs before the first date, undated logs, no fix at all: the same samples streamed")
    func datingCases() throws {
        let gga = nmea("$GPGGA,101010.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        let cases: [[String]] = [
            [gga, "# Date: 2019-03-14"],
            [nmea("$GPGGA,,,,,,0,,,,M,,M,,"), gga],
            [nmea("$GPGGA,101010.00,,,,,0,,,,M,,M,,")],
            [nmea("$GPGSV,1,1,00"), "# only a satellite view: no epoch, no sample"],
            [
                nmea("$GPGGA,235958.00,4807.038,N,01131.000,E,0,00,,,M,,M,,"),
                nmea("$GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                nmea("$GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                nmea("$GPRMC,000001.00,A,4807.038,N,01131.000,E,1.0,10.0,010126,,,A"),
                nmea("$GPGGA,000002.00,4807.038,N,01131.000,E,0,00,,,M,,M,,"),
                nmea("$GPZDA,000003.00,05,01,2026,00,00"),
                nmea("$GPGGA,000003.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            ],
        ]
        for lines in cases {
            let path = try write(lines)
            try expectSame(path, blockSizes: [1, 2, StreamedNMEATrace.blockSize])
        }
    }

    @Test("Bad input: a log without a sentence refuses the replay with its file and first line, before anything plays")
    func noSentence() throws {
        var lines = (0..<3_000).map { "# comment \($0)" }
        lines.append("hello")
        lines.append("$GPGGA,1*00")
        let path = try write(lines)
        #expect(throws: TraceLoadError.invalid(TraceError(path: path, line: 3_001, reason: "not an NMEA 0183 log: no sentence ($…*hh) in it with a good checksum (1 bad)"))) {
            _ = try TraceLoader.openForReplay(path: path)
        }
    }

    @Test("A log rewritten in place while it plays is noticed when a block no longer reads as it did")
    func changedFile() throws {
        let path = try write(Self.longLog(epochs: 3_000))
        let streamed = try StreamedNMEATrace(path: path)
        _ = try streamed.traceSample(at: 0)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data((Self.longLog(epochs: 10).joined(separator: "\n") + "\n").utf8))
        try handle.close()
        #expect(throws: TraceError.self) { _ = try streamed.traceSample(at: streamed.sampleCount - 1) }
    }

    /// `epochs` one-second epochs (GGA + RMC, a GSA between them) from 23:00 on: they
    /// cross midnight, the first date comes only with the 2,000th, every 700th epoch has
    /// no fix and one jump of an hour glues two recordings.
    static func longLog(epochs: Int) -> [String] {
        var lines = ["# a long walk"]
        for i in 0..<epochs {
            let second = (23 * 3600 + i + (i >= epochs / 2 ? 3600 : 0)) % 86_400
            let time = String(format: "%02d%02d%02d.00", second / 3600, second / 60 % 60, second % 60)
            let lat = String(format: "48%02d.%04d", 7 + i / 60_000, i % 10_000)
            let fix = i % 700 != 699
            lines.append(nmea("$GPGGA,\(time),\(lat),N,01131.000,E,\(fix ? 1 : 0),08,0.9,545.4,M,46.9,M,,"))
            lines.append(nmea("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"))
            let date = i < 2_000 ? "" : (second >= 23 * 3600 ? "010326" : "020326")
            lines.append(nmea("$GPRMC,\(time),\(fix ? "A" : "V"),\(lat),N,01131.000,E,1.2,\(i % 360).0,\(date),,,A"))
        }
        return lines
    }
}
