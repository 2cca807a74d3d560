import Foundation
import SextantCore
import SextantProtocol

extension TracePlot {
    /// Colours of the states a lane shows.
    static let stateColours: [String: String] = [
        "portrait": "#60a5fa", "portraitUpsideDown": "#a78bfa", "landscapeLeft": "#34d399", "landscapeRight": "#2dd4bf",
        "faceUp": "#fbbf24", "faceDown": "#f97316", "unknown": "#d1d5db",
        "closed": "#f87171", "halfOpened": "#fbbf24", "flat": "#4ade80",
        "ok": "#4ade80", "noFix": "#fbbf24", "lost": "#f87171",
        "authorized": "#bbf7d0", "reduced": "#fde68a", "denied": "#fecaca", "restricted": "#fecaca", "notDetermined": "#e5e7eb",
        "near": "#f87171", "far": "#e5e7eb",
        "stationary": "#d1d5db", "walking": "#86efac", "running": "#fbbf24", "cycling": "#93c5fd", "automotive": "#c4b5fd",
    ]
    static let promptColour = "#9333ea"

    /// The lanes of the trace's own states (regions, heading, time zone and motion kinds where there are any), then
    /// one per app (three at most).
    var laneNames: [String] { traceLaneNames + events.apps.prefix(Self.maximumAppLanes) }
    var traceLaneNames: [String] {
        ["orientation", "posture", "GPS"] + (regions.isEmpty ? [] : [Self.regionsLane]) + (heading.hasSamples ? [Self.headingLane] : [])
            + (hasTimeZoneLane ? [Self.timeZoneLane] : [])
            + motion.names
    }

    /// The top of lane `index` (0: orientation).
    func laneY(_ index: Int) -> Double { firstLaneY + Double(index) * (Self.laneHeight + Self.laneGap) }

    func drawTimelines(_ canvas: inout SVGCanvas) {
        let lanes: [(String, [TimelineSegment], String)] = [
            ("orientation", timelines.orientation, timelines.hasAccelerometer ? "no decision yet" : "no accelerometer samples"),
            ("posture", timelines.posture, timelines.hasHinge ? "no decision yet" : "no hinge samples"),
            ("GPS", timelines.gps, timelines.hasGPSState ? "" : "no gps samples"),
        ]
        for (index, (name, segments, emptyNote)) in lanes.enumerated() {
            drawLaneName(&canvas, AppNameLayout.single(name), y: laneY(index))
            drawLane(&canvas, segments: segments, emptyNote: emptyNote, y: laneY(index))
        }
        let traceLanes = traceLaneNames
        if let index = traceLanes.firstIndex(of: Self.regionsLane) { drawRegionsLane(&canvas, y: laneY(index)) }
        if let index = traceLanes.firstIndex(of: Self.headingLane) { drawHeadingLane(&canvas, y: laneY(index)) }
        if let index = traceLanes.firstIndex(of: Self.timeZoneLane) { drawTimeZoneLane(&canvas, y: laneY(index)) }
        for lane in motion.lanes {
            if let index = traceLanes.firstIndex(of: lane.name) { drawMotionLane(&canvas, name: lane.name, content: lane.content, y: laneY(index)) }
        }
        let apps = events.apps
        for (index, app) in apps.prefix(Self.maximumAppLanes).enumerated() {
            drawAppLane(&canvas, app: app, y: laneY(traceLanes.count + index))
        }
        var y = laneY(traceLanes.count + min(apps.count, Self.maximumAppLanes))
        if apps.count > Self.maximumAppLanes {
            canvas.text("and \(apps.count - Self.maximumAppLanes) more apps not drawn", x: laneX, y: y + 6, size: 10, fill: "#555")
            y += 8
        }
        canvas.line(x1: laneX, y1: firstLaneY - 2, x2: laneX, y2: y, stroke: "#ea580c", width: 1.5, extra: [("id", "time-cursor"), ("visibility", "hidden")])
        drawTimeAxis(&canvas, y: y)
    }

    func drawLaneName(_ canvas: inout SVGCanvas, _ layout: AppNameLayout, y: Double) {
        for (line, baseline) in zip(layout.lines, layout.baselines(laneTop: y, laneHeight: Self.laneHeight)) {
            canvas.text(line, x: 20, y: baseline, size: layout.size, bold: true)
        }
    }

    func drawLane(_ canvas: inout SVGCanvas, segments: [TimelineSegment], emptyNote: String, y: Double, title: String? = nil) {
        canvas.rect(x: laneX, y: y, width: laneWidth, height: Self.laneHeight, fill: "#f3f4f6", title: title)
        if segments.isEmpty, !emptyNote.isEmpty {
            canvas.text(emptyNote, x: laneX + 8, y: y + Self.laneHeight * 0.68, size: 10, fill: "#6b7280")
        }
        for segment in segments {
            // A trace of one instant: its state spans the lane.
            let x1 = timeX(segment.from), x2 = trace.duration > 0 ? max(timeX(segment.to), x1 + 1) : laneX + laneWidth
            let title = "\(segment.label) from +\(NiceNumber.clock(segment.from, step: 0.1)) to +\(NiceNumber.clock(segment.to, step: 0.1))"
            canvas.rect(x: x1, y: y, width: x2 - x1, height: Self.laneHeight, fill: Self.stateColours[segment.label] ?? "#9ca3af", stroke: "#ffffff", title: title)
            // A label only where it fits.
            if x2 - x1 > PlotText.width(segment.label, size: 10) + 8 {
                canvas.text(segment.label, x: x1 + 4, y: y + Self.laneHeight * 0.68, size: 10, fill: "#111")
            }
        }
    }

    /// Seconds from the trace's start of an event's time; before any time, the start.
    func seconds(_ time: Timestamp?) -> Double { time.map { Double($0.nanoseconds - trace.start.nanoseconds) / 1e9 } ?? 0 }

    /// One app: its authorization over time (authorized, reduced, denied...), a tick for
    /// every location it received (blue full, orange reduced), a grey tick for each fix
    /// of the trace it did not get, and above the lane its prompts (a mark where one
    /// opened, a bar while it stayed open).
    private func drawAppLane(_ canvas: inout SVGCanvas, app: String, y: Double) {
        var authorization = LaneBuilder()
        for change in events.authorizations where change.app == app {
            authorization.change(to: change.laneLabel, at: seconds(change.time))
        }
        drawLaneName(&canvas, AppNameLayout(app, width: laneX - 26), y: y)
        drawLane(&canvas, segments: authorization.finish(at: trace.duration), emptyNote: "", y: y, title: app)
        let received = events.received.filter { $0.app == app }
        let times = Set(received.map { $0.time.nanoseconds / 1_000_000 })
        // One tick a pixel column at most, whatever the number of fixes.
        var withheldColumns = Set<Int>(), receivedColumns = Set<Int>()
        for (offset, fix) in locations where !times.contains(fix.time.nanoseconds / 1_000_000) {
            let x = timeX(Double(offset) / 1e9)
            guard withheldColumns.insert(Int(x.rounded())).inserted else { continue }
            canvas.line(x1: x, y1: y + 16, x2: x, y2: y + Self.laneHeight, stroke: "#6b7280", width: 1)
        }
        for event in received {
            let x = timeX(Double(event.time.nanoseconds - trace.start.nanoseconds) / 1e9)
            guard receivedColumns.insert(Int(x.rounded()) * 2 + (event.reduced ? 1 : 0)).inserted else { continue }
            canvas.line(x1: x, y1: y, x2: x, y2: y + 14, stroke: event.reduced ? "#d97706" : "#1d4ed8", width: 1.5)
        }
        drawPrompts(&canvas, app: app, y: y)
    }

    private func drawPrompts(_ canvas: inout SVGCanvas, app: String, y: Double) {
        for prompt in events.prompts where prompt.app == app {
            let x1 = timeX(seconds(prompt.opened))
            let x2 = prompt.isClosed ? timeX(seconds(prompt.closedAt)) : timeX(trace.duration)
            canvas.rect(x: x1, y: y - 3, width: max(x2 - x1, 1), height: 2, fill: Self.promptColour, title: prompt.summary)
            canvas.polygon([(x1 - 4, y - 8), (x1 + 4, y - 8), (x1, y - 1)], fill: Self.promptColour, extra: [("class", "prompt")], title: prompt.summary)
        }
    }

    private func drawTimeAxis(_ canvas: inout SVGCanvas, y: Double) {
        let legend = legendRows()
        let axisY = min(y + 4, Double(Self.height) - 26 - Double(legend.count) * 16)
        canvas.line(x1: laneX, y1: axisY, x2: laneX + laneWidth, y2: axisY, stroke: "#6b7280")
        var t = 0.0
        while t <= trace.duration + 1e-9 {
            let x = timeX(t), text = NiceNumber.clock(t, step: timeStep)
            canvas.line(x1: x, y1: axisY, x2: x, y2: axisY + 5, stroke: "#6b7280")
            // The last label ends at the lane's end rather than past the picture's edge.
            let fits = x + PlotText.width(text, size: 10) / 2 <= Double(Self.width) - 4
            canvas.text(text, x: fits ? x : laneX + laneWidth, y: axisY + 17, size: 10, anchor: fits ? .middle : .end, fill: "#374151")
            t += timeStep
        }
        canvas.text("time from start", x: 20, y: axisY + 17, size: 10, fill: "#374151")
        for (row, items) in legend.enumerated() {
            drawLegend(&canvas, items, y: axisY + 36 + Double(row) * 16)
        }
    }

    /// The legend's items in rows that fit the picture's width.
    private func legendRows() -> [[(colour: String, label: String)]] {
        var items: [(colour: String, label: String)] = [("#16a34a", "start"), ("#dc2626", "end"), ("#3b82f6", "hAcc (68 %)"), ("#1d4ed8", "time tick")]
        items += laneLegend
        if events.hasApps {
            items += [("#1d4ed8", "received"), ("#d97706", "reduced fix"), ("#6b7280", "withheld")]
            items += [("#bbf7d0", "authorized"), ("#fde68a", "reduced"), ("#fecaca", "denied"), (Self.promptColour, "prompt")]
        }
        var rows: [[(colour: String, label: String)]] = [[]]
        var x = 20.0
        for item in items {
            let width = Self.legendItemWidth(item.label)
            if x + width > Double(Self.width) - 20, !rows[rows.count - 1].isEmpty {
                rows.append([])
                x = 20
            }
            rows[rows.count - 1].append(item)
            x += width
        }
        return rows
    }

    private static func legendItemWidth(_ label: String) -> Double { 14 + PlotText.width(label, size: 10) + 14 }

    private func drawLegend(_ canvas: inout SVGCanvas, _ items: [(colour: String, label: String)], y: Double) {
        var x = 20.0
        for (colour, label) in items {
            canvas.circle(x: x + 5, y: y - 4, radius: 5, fill: colour)
            canvas.text(label, x: x + 14, y: y, size: 10, fill: "#374151")
            x += Self.legendItemWidth(label)
        }
    }
}
