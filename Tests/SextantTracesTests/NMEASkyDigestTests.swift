import Foundation
import SextantCore
import SextantProtocol
@testable import SextantTraces
import Testing

/// The sky samples every log of gpsd's suite gives, pinned: their number and a digest of
/// every value in them (offset, constellation, svid, elevation, azimuth, C/N0 and used, to
/// the bit), as the reader decoded them when GSV and GSA were first read (RULES N8; the
/// cycles `NMEASkyTests` checks by hand are among them). A change to how GSV or GSA is
/// decoded, grouped or merged that moves a single satellite of a single cycle fails here.
/// A log the table does not name gives no sky sample.
@Suite("NMEA skies of gpsd's logs, pinned")
struct NMEASkyDigestTests {
    /// Log → sky samples and their digest (`digest`).
    static let pinned: [String: (count: Int, digest: UInt64)] = [
        "ac12.log": (7, 0x27130e116c0c4f27),
        "beidou-bd.log": (1, 0x5b34fcb797184520),
        "blumax-gps009.log": (4, 0x2482da9141a881d0),
        "bn-9015.log": (6, 0x5f99eee6df3459bf),
        "bt451.log": (13, 0xb5d579c88fa4741a),
        "bu353-glonass.log": (1, 0x75910f5f0c3c7f7a),
        "ch-4711.log": (1, 0x3e0bdf408e0f7796),
        "com-1289.log": (12, 0xe05f2ea6d88fa4a3),
        "gp-320fw-2019-04-06-overflow.log": (9, 0x395dad22a0ed5b9e),
        "gr8013-w.log": (3, 0xb0a70644c87d7c5e),
        "haicom-305N.log": (24, 0x61c52f3b3b1611af),
        "isync.log": (5, 0x2a60e9d2e48667c4),
        "mtk-3301.log": (1, 0x2f58e03feee24120),
        "neo-m8n.log": (22, 0x298557e469758203),
        "rgm3800.log": (2, 0xb17519175ba73653),
        "sl869.log": (8, 0xd8a64a0f3c835663),
        "tcp-test.log": (1, 0xad9d1a8daeb233e),
        "triton400.log": (3, 0x9394027ed9fd78e6),
    ]

    /// FNV-1a over the sky samples' values, in order.
    static func digest(_ samples: [TraceSample]) -> (count: Int, digest: UInt64) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var count = 0
        func mix(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ (value >> UInt64(shift) & 0xff)) &* 0x0000_0100_0000_01b3
            }
        }
        for sample in samples {
            guard let sky = sample.value.sky else { continue }
            count += 1
            mix(UInt64(bitPattern: sample.offset))
            mix(UInt64(sky.satellites.count))
            for s in sky.satellites {
                mix(UInt64(s.constellation.rawValue) << 32 | UInt64(s.svid))
                mix(s.elevation?.bitPattern ?? UInt64.max)
                mix(s.azimuth?.bitPattern ?? UInt64.max)
                mix(s.cn0.bitPattern)
                mix(s.used ? 1 : 0)
            }
        }
        return (count, hash)
    }

    @Test("Every log of Traces/gpsd gives the sky samples it gave when GSV and GSA were first decoded, to the bit")
    func everyLog() throws {
        let logs = NMEAStreamedSummaryTests.logs(in: NMEAStreamedSummaryTests.repositoryLogs)
        #expect(logs.count >= 30)
        var found: [String: (count: Int, digest: UInt64)] = [:]
        for path in logs {
            let trace = try TraceLoader.load(path: path)
            let sky = Self.digest(trace.samples)
            if sky.count > 0 { found[(path as NSString).lastPathComponent] = sky }
        }
        let table = found.keys.sorted().map { "\"\($0)\": (\(found[$0]!.count), 0x\(String(found[$0]!.digest, radix: 16)))," }
        #expect(found.keys.sorted() == Self.pinned.keys.sorted(), "now:\n\(table.joined(separator: "\n"))")
        for (log, pinned) in Self.pinned {
            #expect(found[log]?.count == pinned.count && found[log]?.digest == pinned.digest, "\(log): now \(String(describing: found[log]))")
        }
    }
}

/// `trace info`'s reading (`NMEAReader.stream(…, satellites: false)`): GSV and GSA checked
/// but their satellites not kept. It must give the same samples otherwise, the same
/// skipped lines, and its sky samples at the same places.
@Suite("NMEA read without satellites, as a summary reads it")
struct NMEASatellitesSkippedTests {
    /// The samples with each sky emptied: what a reading without satellites should give.
    static func emptied(_ samples: [TraceSample]) -> [TraceSample] {
        samples.map { sample in
            guard sample.value.sky != nil else { return sample }
            return TraceSample(offset: sample.offset, value: .sky(SkyView(satellites: [])))
        }
    }

    @Test("Every log of gpsd's suite: the same fixes, noFix, headings, skipped lines, and sky samples at the same offsets, in one pass and two")
    func everyLog() throws {
        let logs = NMEAStreamedSummaryTests.logs(in: NMEAStreamedSummaryTests.repositoryLogs)
        #expect(logs.count >= 30)
        var skies = 0
        for path in logs {
            let whole = try TraceLoader.load(path: path)
            let fd = open(path, O_RDONLY)
            #expect(fd >= 0)
            defer { close(fd) }
            for limit in [4_096, 0] {
                var streamed: [TraceSample] = []
                let header = try NMEAReader.stream(fd: fd, path: path, pendingLimit: limit, satellites: false) { streamed.append($0) }
                #expect(streamed == Self.emptied(whole.samples), "\(path), limit \(limit)")
                #expect(header.start == whole.start && header.skipped == whole.skipped, "\(path), limit \(limit)")
            }
            skies += whole.samples.count { $0.value.sky != nil }
        }
        #expect(skies > 100)
    }

    @Test("Each GSV and GSA of gpsd's logs, and ones at the edges of their ranges, is good or malformed alike with and without satellites")
    func sameVerdicts() throws {
        let edges = [
            "$GPGSV,3,4,09,01,40,083,46", "$GPGSV,1,1,01,01,95,083,46", "$GPGSV,1,1,01,01,40,361,46", "$GPGSV,1,1,01,01,40,083,120",
            "$GPGSV,1,1,01,xx,40,083,46", "$GPGSV,1,1,02,01,40,083,46,02,40,083,x", "$GPGSA,A,3,0x,,,,,,,,,,,,1.5,0.9,1.2",
            "$GPGSA,A,3,01,,,,,,,,,,,1x,1.5,0.9,1.2", "$GPGSV,1,1,01,01,91,083,46", "$GPGSV,1,1,01,01,90,361,46", "$GPGSV,1,1,01,01,90,360,100",
            "$GPGSV,1,1,01,01,90,360,99", "$GPGSV,1,1,01,01,-5,360,99", "$GPGSV,1,1,01,01,5.5,0,0", "$GPGSV,1,1,01,0001,0,0000,00",
            "$GPGSV,1,1,01,12345,0,0,0", "$GPGSV,1,1,01,01,0,0,9999", "$GPGSV,1,1,01,01,,,", "$GPGSV,1,1,01,01,1:,0,0",
        ].map(nmea)
        var lines = edges
        for path in NMEAStreamedSummaryTests.logs(in: NMEAStreamedSummaryTests.repositoryLogs) {
            let text = try String(contentsOfFile: path, encoding: .isoLatin1)
            lines += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("$") && ($0.contains("GSV,") || $0.contains("GSA,")) }
        }
        #expect(lines.count > 500)
        var with = NMEASentenceParser(namingSentences: false)
        var without = NMEASentenceParser(namingSentences: false, decodingSatellites: false)
        for line in lines {
            var text = line
            text.withUTF8 { bytes in
                var problem = NMEALineProblem.notNMEA, problemWithout = NMEALineProblem.notNMEA
                var kept = with.parse(bytes[...], problem: &problem)
                let skipped = without.parse(bytes[...], problem: &problemWithout)
                switch kept?.body {
                case .gsv(var gsv): gsv.satellites = []; kept?.body = .gsv(gsv)
                case .gsa(var gsa): gsa.used = []; kept?.body = .gsa(gsa)
                default: break
                }
                #expect(skipped == kept && problemWithout == problem, "\(line)")
            }
        }
    }
}
