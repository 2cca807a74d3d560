import ArgumentParser
import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

/// `trace info --time-zone-table TABLE`: where the device's zone changes along a trace, as
/// the daemon would decide it on the trace's times (sextant-rules(7) Z1–Z6: the same engine,
/// the same hysteresis), without a daemon.
struct ZoneMarkOptions: ParsableArguments {
    @Option(
        name: .customLong("time-zone-table"),
        help: ArgumentHelp("Mark the time zone changes along the trace, by this boundary table (docs/timezone.md).", valueName: "path"),
        completion: .file())
    var table: String?

    /// The table and the system's tzdata, or nil without `--time-zone-table`.
    func timeZones() throws -> PlotTimeZones? {
        guard let table else { return nil }
        guard let data = FileManager.default.contents(atPath: table) else { throw Failure("--time-zone-table \(table): cannot read it") }
        do { return PlotTimeZones(table: try ZoneTable(bytes: [UInt8](data)), rules: FoundationZoneRules()) } catch {
            throw Failure("--time-zone-table \(table): not a Sextant time zone table: \(error)")
        }
    }

    /// The decisions along `trace`, or nil without `--time-zone-table`.
    func decisions(_ trace: Trace) throws -> [ZoneDecision]? {
        guard let zones = try timeZones() else { return nil }
        var follower = ZoneFollower(table: zones.table, rules: zones.rules)
        var decisions: [ZoneDecision] = []
        for sample in trace.samples {
            guard case .location(var fix) = sample.value else { continue }
            fix.time = trace.start.adding(nanoseconds: sample.offset)  // the time a replay stamps
            if let decision = follower.observe(fix) { decisions.append(decision) }
        }
        return decisions
    }

    static func line(_ decisions: [ZoneDecision]) -> String {
        guard !decisions.isEmpty else { return "Zones:     none (no fix in the table's regions)" }
        return "Zones:     " + decisions.map { "\(TerminalText.escaped($0.zone)) at \($0.time.rfc3339) (\($0.reason.rawValue))" }.joined(separator: ", ")
    }

    static func json(_ decisions: [ZoneDecision]) -> JSONValue {
        .array(decisions.map { d in
            ["zone": .string(d.zone), "previous": JSONValue(d.previousZone), "time": .string(d.time.rfc3339), "reason": .string(d.reason.rawValue),
             "utcOffset": d.offset.map { .int(Int64($0.seconds)) } ?? .null, "isDST": d.offset.map { .bool($0.isDaylightSaving) } ?? .null]
        })
    }
}

/// The system's tzdata, asked afresh each time: a trace is read once.
struct FoundationZoneRules: ZoneRules {
    func offset(zone: String, at instant: Timestamp) -> ZoneOffset? {
        guard let timeZone = TimeZone(identifier: zone) else { return nil }
        let date = Date(timeIntervalSince1970: instant.seconds)
        return ZoneOffset(seconds: timeZone.secondsFromGMT(for: date), isDaylightSaving: timeZone.isDaylightSavingTime(for: date))
    }
}
