import Foundation
import SextantCore
import SextantProtocol
import SextantTraces
import Testing

/// Every log of gpsd's regression suite (Traces/gpsd, from gpsd 3.22) read by Sextant's
/// NMEA reader and compared, fix by fix, with what gpsd 3.22 answered for it (the `.chk`
/// files: each sentence gpsd accepted, followed by the JSON it emitted).
///
/// gpsd emits a TPV after many sentences of a cycle, Sextant one fix per cycle (epoch).
/// The matching rule, stated from the `.chk` alone:
///
/// - The `.chk` is cut into epochs: an epoch is the run of sentences from one time of
///   day carried by a position sentence (GGA, RMC, GLL, GNS) to the next different one;
///   a TPV belongs to the epoch of the sentence it follows. gpsd's answer for an epoch is
///   its last TPV.
/// - An epoch where gpsd's last TPV has a 2D or 3D fix (mode ≥ 2) has exactly one
///   Sextant fix, equal to that TPV: lat/lon within 1e-6°, the time of day exactly, the
///   date too where gpsd gives one (gpsd 3.22 moves dates before 2017 forward by 1024
///   weeks, so either date is accepted for those), and speed, track and altMSL wherever
///   a sentence of the epoch carried them (elsewhere gpsd computes its own).
///   One deliberate difference: when every position sentence of the epoch says "no
///   fix" in its status field (GGA quality 0, RMC/GLL status V), Sextant has no fix
///   there; gpsd 3.22 still sets 2D from a quality-0 GGA that lists 3 satellites.
/// - An epoch where gpsd's last TPV has no fix (mode 0 or 1) has no Sextant fix, when
///   that TPV answers the epoch's last position sentence.
/// - An epoch where gpsd emitted no TPV at all (it reports at the end of a cycle it has
///   learnt, and drops a cycle whose usual last sentence is missing), or whose last TPV
///   is a no-fix one that came before the epoch's last position sentence (haicom-305N:
///   a GGA with 0 satellites answered, then an RMC with status A unanswered), has at
///   most one Sextant fix, exactly when one of its position sentences has a valid status
///   (GGA quality 1–6 with 3 or more satellites, RMC/GLL status A, a GNS mode letter A,
///   D, E, F, R or P), and that fix's coordinates are one of those sentences' own
///   (decoded here by hand).
/// - Times: Sextant's time of day equals the receiver's, except after the receiver's
///   time went back (bt451.log is three recordings put end to end; humminbird-M37.log's
///   clock jumps back 13 s): from there on, the fixes are moved to follow the previous
///   fix by exactly 1 s and keep their spacing. (A jump forward by more than a day would
///   do the same; none of these logs has one.)
@Suite("NMEA logs against gpsd 3.22's answers")
struct NMEAReferenceTests {
    static let directory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Traces/gpsd").path
    }()

    /// The manifest's rows, by log name.
    static let manifest: [String: [String: String]] = {
        guard let text = try? String(contentsOfFile: directory + "/MANIFEST.tsv", encoding: .utf8) else { return [:] }
        let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [:] }
        var rows: [String: [String: String]] = [:]
        for cells in lines.dropFirst() where cells.count == header.count {
            rows[cells[0]] = Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
        return rows
    }()

    static let logs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted()
    }()

    @Test("The suite has all 31 logs, each with its .chk and a manifest row")
    func everyLogIsThere() {
        #expect(Self.logs.count == 31)
        for log in Self.logs {
            #expect(FileManager.default.fileExists(atPath: Self.directory + "/" + log + ".chk"), "\(log).chk")
            #expect(Self.manifest[log] != nil, "\(log) in MANIFEST.tsv")
        }
    }

    // shape: long because it is one walk over gpsd's epochs and the reader's fixes side by
    // side, each field compared where gpsd gave it; split, the walk's state would be passed around.
    @Test("Each log's fixes are gpsd's", arguments: NMEAReferenceTests.logs)
    func matchesGpsd(log: String) throws {
        let trace = try NMEAReader.read(try String(contentsOfFile: Self.directory + "/" + log, encoding: .utf8), path: log)
        let reference = try GpsdAnswers(chk: try String(contentsOfFile: Self.directory + "/" + log + ".chk", encoding: .utf8))
        let fixes: [LocationFix] = trace.samples.compactMap { if case .location(let f) = $0.value { return f } else { return nil } }

        // Which epochs must have a Sextant fix, in order.
        var expected: [GpsdAnswers.Epoch] = []
        for epoch in reference.epochs {
            switch epoch.verdict {
            case .fix(let tpv):
                if epoch.receiverSaysNoFix {
                    continue  // the deliberate difference (gpsd promotes a quality-0 GGA)
                }
                _ = tpv
                expected.append(epoch)
            case .noFix:
                continue
            case .silent:
                if epoch.receiverSaysFix { expected.append(epoch) }
            }
        }
        #expect(fixes.count == expected.count, "\(log): \(fixes.count) Sextant fixes for \(expected.count) gpsd epochs with a fix")

        var shift: Int64 = 0
        for (k, (fix, epoch)) in zip(fixes, expected).enumerated() {
            let where_ = "\(log) epoch \(GpsdAnswers.describe(epoch.time)) (line \(epoch.line) of the .chk)"
            // Time of day, with the segment rule.
            let sextantTimeOfDay = Self.timeOfDay(fix.time.nanoseconds)
            let time = try #require(epoch.time, "\(where_): a fix needs a time")
            if k > 0, let previous = expected[k - 1].time, Self.wentBack(from: previous, to: time) {
                #expect(fix.time.nanoseconds == fixes[k - 1].time.nanoseconds + 1_000_000_000, "\(where_): a later recording starts 1 s after the previous fix")
                shift = Self.signedDifference(sextantTimeOfDay, time)
            }
            #expect(Self.signedDifference(sextantTimeOfDay, time) == shift, "\(where_): time of day \(GpsdAnswers.describe(sextantTimeOfDay))")

            switch epoch.verdict {
            case .fix(let tpv):
                #expect(abs(fix.latitude - tpv.latitude) <= 1e-6, "\(where_): lat \(fix.latitude) vs gpsd \(tpv.latitude)")
                #expect(abs(fix.longitude - tpv.longitude) <= 1e-6, "\(where_): lon \(fix.longitude) vs gpsd \(tpv.longitude)")
                if let time = tpv.time, shift == 0 {
                    let week1024: Int64 = 619_315_200 * 1_000_000_000
                    let sameDate = abs(fix.time.nanoseconds - time.nanoseconds) < 1_000_000
                    let shiftedByGpsd = fix.time.nanoseconds < 1_483_228_800 * 1_000_000_000
                        && abs(fix.time.nanoseconds + week1024 - time.nanoseconds) < 1_000_000
                    #expect(sameDate || shiftedByGpsd, "\(where_): \(fix.time) vs gpsd \(time)")
                }
                if epoch.carriesSpeed, let speed = tpv.speed {
                    #expect(abs((fix.speed ?? -1) - speed) <= 0.0006, "\(where_): speed \(fix.speed.map { "\($0)" } ?? "none") vs gpsd \(speed)")
                }
                if epoch.carriesCourse, let track = tpv.track {
                    #expect(abs((fix.course ?? -1) - track) <= 0.00006, "\(where_): course \(fix.course.map { "\($0)" } ?? "none") vs gpsd \(track)")
                }
                if epoch.carriesAltitude, let altitude = tpv.altMSL {
                    #expect(abs((fix.altitude ?? -1e9) - altitude) <= 0.00006, "\(where_): alt \(fix.altitude.map { "\($0)" } ?? "none") vs gpsd \(altitude)")
                }
            case .silent:
                let matches = epoch.validPositions.contains { abs($0.0 - fix.latitude) <= 1e-9 && abs($0.1 - fix.longitude) <= 1e-9 }
                #expect(matches, "\(where_): \(fix.latitude), \(fix.longitude) is none of the epoch's positions \(epoch.validPositions)")
            case .noFix:
                Issue.record("\(where_): no fix was expected")
            }
        }
    }

    @Test("Bad checksums and spliced sentences are skipped and counted as the manifest counts them; so are lines of garbage", arguments: NMEAReferenceTests.logs)
    func countsBadLines(log: String) throws {
        let text = try String(contentsOfFile: Self.directory + "/" + log, encoding: .utf8)
        let trace = try NMEAReader.read(text, path: log)
        let bad = (trace.skipped[NMEALineProblem.badChecksum.rawValue] ?? 0) + (trace.skipped[NMEALineProblem.spliced.rawValue] ?? 0)
        #expect(String(bad) == Self.manifest[log]?["bad_checksums"], "\(log): \(trace.skipped)")
        // Lines with no sentence at all: tcp-test.log's leading garbage, the tail of
        // isync.log's spliced GSV.
        let garbage = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.contains("$") && !$0.contains("!") }.count
        #expect(trace.skipped[NMEALineProblem.notNMEA.rawValue] ?? 0 == garbage, "\(log): \(trace.skipped)")
        // Every sentence of these logs is readable (MTK's `8960.000000` and the like are
        // in no-fix sentences, whose positions are not read).
        #expect(trace.skipped[NMEALineProblem.malformed.rawValue] == nil, "\(log): \(trace.skipped)")
    }

    @Test("Losing the fix is one gps noFix sample; a log that starts without a fix says so at offset 0", arguments: NMEAReferenceTests.logs)
    func noFixTransitions(log: String) throws {
        let trace = try NMEAReader.read(try String(contentsOfFile: Self.directory + "/" + log, encoding: .utf8), path: log)
        let reference = try GpsdAnswers(chk: try String(contentsOfFile: Self.directory + "/" + log + ".chk", encoding: .utf8))
        // The receiver's own story: epochs with a fix (F) or with only no-fix reports (N).
        let story = reference.epochs.compactMap { e -> Character? in e.receiverSaysFix && e.verdict.hasFix ? "F" : (e.receiverSaysNoFix ? "N" : nil) }
        var expected = ""
        for c in story where c != expected.last { expected.append(c) }
        let actual = String(trace.samples.compactMap { s -> Character? in
            switch s.value {
            case .location: return "F"
            case .gps(.noFix): return "N"
            default: return nil
            }
        }.reduce(into: "") { if $1 != $0.last { $0.append($1) } })
        #expect(actual == expected, "\(log)")
        if expected.first == "N" { #expect(trace.samples.first == TraceSample(offset: 0, value: .gps(.noFix))) }
    }

    @Test("Offsets never decrease and every fix is stamped start + offset", arguments: NMEAReferenceTests.logs)
    func timeLine(log: String) throws {
        let trace = try NMEAReader.read(try String(contentsOfFile: Self.directory + "/" + log, encoding: .utf8), path: log)
        for (a, b) in zip(trace.samples, trace.samples.dropFirst()) { #expect(a.offset <= b.offset, "\(log)") }
        for sample in trace.samples {
            #expect(sample.offset >= 0)
            if case .location(let fix) = sample.value { #expect(fix.time == trace.start.adding(nanoseconds: sample.offset), "\(log)") }
        }
        if case .location? = trace.samples.first?.value { #expect(trace.samples.first?.offset == 0) }
    }

    // MARK: - Helpers

    static let day: Int64 = 86_400_000_000_000

    static func timeOfDay(_ nanoseconds: Int64) -> Int64 { ((nanoseconds % day) + day) % day }

    /// a − b in (−12 h, 12 h].
    static func signedDifference(_ a: Int64, _ b: Int64) -> Int64 {
        var d = (a - b) % day
        if d > day / 2 { d -= day }
        if d <= -day / 2 { d += day }
        return d
    }

    /// The time of day went back by less than 12 h (more is the next day).
    static func wentBack(from a: Int64, to b: Int64) -> Bool { signedDifference(b, a) < 0 }
}

/// gpsd's answers, cut into epochs (see `NMEAReferenceTests`).
struct GpsdAnswers {
    struct TPV {
        var mode: Int
        var latitude: Double
        var longitude: Double
        var time: Timestamp?
        var speed: Double?
        var track: Double?
        var altMSL: Double?
    }

    enum Verdict {
        case fix(TPV)
        case noFix
        case silent

        var hasFix: Bool { if case .fix = self { return true } else { return false } }
    }

    struct Epoch {
        /// Nil for no-fix reports without a time (`$GPRMC,,V,,…`), which make an epoch of
        /// their own after a timed one.
        var time: Int64?
        var line: Int
        var lastTPV: TPV?
        var sawTPV = false
        /// A position sentence came after the last TPV.
        var unansweredPosition = false
        /// Sentence kinds seen before the epoch's last TPV (what that TPV can know).
        var carriesSpeed = false
        var carriesCourse = false
        var carriesAltitude = false
        /// Whether each position sentence's own status said fix or no fix.
        var statuses: [Bool] = []
        var validPositions: [(Double, Double)] = []

        var receiverSaysFix: Bool { statuses.contains(true) }
        var receiverSaysNoFix: Bool { !statuses.isEmpty && !statuses.contains(true) }

        var verdict: Verdict {
            guard sawTPV, let tpv = lastTPV else { return .silent }
            if tpv.mode >= 2 { return .fix(tpv) }
            return unansweredPosition ? .silent : .noFix
        }
    }

    var epochs: [Epoch] = []

    // shape: long because it is one pass over the .chk lines, the epoch being built and the
    // sentences seen since its last TPV held across lines; each class of line is a few lines.
    init(chk: String) throws {
        var current: Epoch?
        // What the sentences since the last TPV of the current epoch carried.
        var pending = (speed: false, course: false, altitude: false)
        // "\r\n" is one Character in Swift: split on both forms of line end.
        for (index, raw) in chk.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("{") {
                guard case .object(let o) = try JSONValue.parse(line), o["class"]?.stringValue == "TPV", current != nil else { continue }
                current!.sawTPV = true
                current!.unansweredPosition = false
                current!.lastTPV = TPV(
                    mode: o["mode"]?.intValue ?? 0, latitude: o["lat"]?.doubleValue ?? .nan, longitude: o["lon"]?.doubleValue ?? .nan,
                    time: o["time"]?.stringValue.flatMap { Timestamp(rfc3339: $0) }, speed: o["speed"]?.doubleValue,
                    track: o["track"]?.doubleValue, altMSL: o["altMSL"]?.doubleValue)
                current!.carriesSpeed = current!.carriesSpeed || pending.speed
                current!.carriesCourse = current!.carriesCourse || pending.course
                current!.carriesAltitude = current!.carriesAltitude || pending.altitude
                pending = (false, false, false)
                continue
            }
            guard line.hasPrefix("$") else { continue }
            let fields = line.dropFirst().split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let tag = fields[0]
            guard tag.count == 5, !tag.hasPrefix("P") else { continue }
            func field(_ n: Int) -> String { n < fields.count ? fields[n] : "" }
            let type = tag.suffix(3)
            // Where each position sentence keeps its time, position, and status.
            let layout: (time: Int, position: Int)? =
                switch type {
                case "GGA": (1, 2)
                case "RMC": (1, 3)
                case "GLL": (5, 1)
                case "GNS": (1, 2)
                default: nil
                }
            if let layout {
                let time = Self.timeOfDay(field(layout.time))
                let valid: Bool =
                    switch type {
                    case "GGA": (1...6).contains(Int(field(6)) ?? 0) && (Int(field(7)).map { $0 >= 3 } ?? true)
                    case "RMC": field(2) == "A" || field(2) == "D"
                    case "GLL": field(6) == "A"
                    default: field(6).contains { "ADEFRP".contains($0) }
                    }
                let belongs = time != nil ? current?.time == time : current != nil && (valid || current?.time == nil)
                if !belongs {
                    if let current { epochs.append(current) }
                    current = Epoch(time: time, line: index + 1)
                    pending = (false, false, false)
                }
                current!.statuses.append(valid)
                current!.unansweredPosition = true
                if valid, let lat = Self.degrees(field(layout.position), field(layout.position + 1)),
                    let lon = Self.degrees(field(layout.position + 2), field(layout.position + 3))
                {
                    current!.validPositions.append((lat, lon))
                }
                if valid, type == "RMC" {
                    pending.speed = pending.speed || !field(7).isEmpty
                    pending.course = pending.course || !field(8).isEmpty
                }
                if valid, type == "GGA" || type == "GNS" { pending.altitude = pending.altitude || !field(9).isEmpty }
            } else if type == "VTG", current != nil, field(9) != "N" {
                pending.speed = pending.speed || !field(5).isEmpty
                pending.course = pending.course || !field(1).isEmpty
            }
        }
        if let current { epochs.append(current) }
    }

    /// `hhmmss.sss` as nanoseconds since midnight.
    static func timeOfDay(_ text: String) -> Int64? {
        guard text.count >= 6, let h = Int64(text.prefix(2)), let m = Int64(text.dropFirst(2).prefix(2)), let s = Double(text.dropFirst(4)) else {
            return nil
        }
        return (h * 3600 + m * 60) * 1_000_000_000 + Int64((s * 1e9).rounded())
    }

    /// `ddmm.mmm` + hemisphere as signed degrees.
    static func degrees(_ value: String, _ hemisphere: String) -> Double? {
        guard let v = Double(value) else { return nil }
        let whole = (v / 100).rounded(.down)
        let degrees = whole + (v - whole * 100) / 60
        return hemisphere == "S" || hemisphere == "W" ? -degrees : degrees
    }

    static func describe(_ timeOfDay: Int64?) -> String {
        guard let timeOfDay else { return "(no time)" }
        let s = Double(timeOfDay) / 1e9
        return String(format: "%02d:%02d:%06.3f", Int(s) / 3600, Int(s) / 60 % 60, s.truncatingRemainder(dividingBy: 60))
    }
}
