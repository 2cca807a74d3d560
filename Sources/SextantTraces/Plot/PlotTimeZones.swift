import SextantCore
import SextantProtocol

/// What the plot decides the device's time zone by: a boundary table and the zones' rules
/// (the system's tzdata in `sextantctl`), as the daemon's `timeZone` service holds them.
public struct PlotTimeZones: Sendable {
    public var table: ZoneTable
    public var rules: any ZoneRules

    public init(table: ZoneTable, rules: any ZoneRules) {
        self.table = table
        self.rules = rules
    }
}

/// One decision of the time-zone engine along the trace (sextant-rules(7) Z1–Z6), where the
/// plot draws it: on the map at the fix that decided it, and on the time-zone lane.
struct ZoneChangeMark {
    /// Seconds from the trace's start: the deciding fix's.
    var t: Double
    var decision: ZoneDecision
    var fix: LocationFix

    /// `Europe/Madrid UTC+02:00 DST`, or the zone alone when tzdata does not know it.
    var label: String {
        guard let offset = decision.offset else { return decision.zone }
        return "\(decision.zone) \(Self.utc(offset.seconds))\(offset.isDaylightSaving ? " DST" : "")"
    }

    /// `UTC+05:30`, `UTC-03:00`.
    static func utc(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = minutes / 60, rest = minutes % 60
        return "UTC\(seconds < 0 ? "-" : "+")\(hours < 10 ? "0" : "")\(hours):\(rest < 10 ? "0" : "")\(rest)"
    }

    /// The decisions the daemon's own `ZoneFollower` takes over these fixes (the reported
    /// ones, which the daemon decides on), each stamped with its trace time as a replay
    /// stamps it, so that the plot shows what a replay at any pace would.
    static func decide(_ zones: PlotTimeZones?, over locations: [(offset: Int64, fix: LocationFix)], start: Timestamp) -> [ZoneChangeMark] {
        guard let zones else { return [] }
        var follower = ZoneFollower(table: zones.table, rules: zones.rules)
        var marks: [ZoneChangeMark] = []
        for (offset, located) in locations {
            var fix = located
            fix.time = start.adding(nanoseconds: offset)
            if let decision = follower.observe(fix) { marks.append(ZoneChangeMark(t: Double(offset) / 1e9, decision: decision, fix: located)) }
        }
        return marks
    }
}

/// The time-zone lane (each zone from the fix that decided it, named with its offset) and
/// the marks on the track where the zone changes.
extension TracePlot {
    static let timeZoneLane = "time zone"
    static let zoneColours = ["#bfdbfe", "#fde68a"], zoneMarkColour = "#0f766e"

    /// Each zone as a span of the lane, alternating colours, a tick where it was decided.
    func drawTimeZoneLane(_ canvas: inout SVGCanvas, y: Double) {
        drawLaneName(&canvas, AppNameLayout.single(Self.timeZoneLane), y: y)
        drawLane(&canvas, segments: [], emptyNote: zoneChanges.isEmpty ? "no zone (no fix in the table's regions)" : "", y: y)
        for (index, mark) in zoneChanges.enumerated() {
            let x1 = timeX(mark.t), x2 = max(index + 1 < zoneChanges.count ? timeX(zoneChanges[index + 1].t) : laneX + laneWidth, x1 + 1)
            let title = "+\(NiceNumber.clock(mark.t, step: 0.1)) · \(mark.label) (\(mark.decision.reason.rawValue))"
            canvas.rect(
                x: x1, y: y, width: x2 - x1, height: Self.laneHeight, fill: Self.zoneColours[index % 2], stroke: "#ffffff",
                extra: [("class", "time-zone"), ("data-t", String(mark.t)), ("data-zone", mark.decision.zone)], title: title)
            canvas.line(x1: x1, y1: y, x2: x1, y2: y + Self.laneHeight, stroke: Self.zoneMarkColour, width: 2, extra: [("class", "time-zone-change")], title: title)
            if x2 - x1 > PlotText.width(mark.label, size: 10) + 8 {
                canvas.text(mark.label, x: x1 + 4, y: y + Self.laneHeight * 0.68, size: 10, fill: "#111")
            }
        }
    }

    /// A square on the track at each fix that changed the zone, its new zone and offset
    /// beside it where that overlaps no other text (always in its tooltip).
    func drawTimeZoneMarks(_ canvas: inout SVGCanvas, labels: inout LabelPlacer) {
        for mark in zoneChanges {
            let p = pixel(mark.fix)
            let spot = labels.place(mark.label, size: 10, bold: true, candidates: LabelPlacer.around(x: p.x, y: p.y, gap: 7, size: 10))
            pin(&canvas, at: p, extra: [("class", "time-zone-mark"), ("data-zone", mark.decision.zone)]) { canvas in
                canvas.rect(x: -4.5, y: -4.5, width: 9, height: 9, fill: Self.zoneMarkColour, stroke: "#ffffff", title: "+\(NiceNumber.clock(mark.t, step: 0.1)) · time zone \(mark.label)")
                if let spot { canvas.text(mark.label, x: spot.x - p.x, y: spot.y - p.y, size: 10, anchor: spot.anchor, fill: Self.zoneMarkColour, bold: true) }
            }
        }
    }

    /// The zone changes, for the page's event list.
    func timeZoneEvents(lane: Int) -> [ListedEvent] {
        zoneChanges.map { ListedEvent(t: $0.t, what: "time zone \($0.label) (\($0.decision.reason.rawValue))", lane: lane) }
    }
}
