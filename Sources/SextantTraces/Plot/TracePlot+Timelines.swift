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
        "authorized": "#bbf7d0", "denied": "#fecaca",
    ]

    func drawTimelines(_ canvas: inout SVGCanvas) {
        var y = Self.firstLaneY
        let lanes: [(String, [TimelineSegment], String)] = [
            ("orientation", timelines.orientation, timelines.hasAccelerometer ? "no decision yet" : "no accelerometer samples"),
            ("posture", timelines.posture, timelines.hasHinge ? "no decision yet" : "no hinge samples"),
            ("GPS", timelines.gps, timelines.hasGPSState ? "" : "no gps samples"),
        ]
        for (name, segments, emptyNote) in lanes {
            drawLane(&canvas, name: name, segments: segments, emptyNote: emptyNote, y: y)
            y += Self.laneHeight + Self.laneGap
        }
        let apps = events.apps
        for app in apps.prefix(Self.maximumAppLanes) {
            drawAppLane(&canvas, app: app, y: y)
            y += Self.laneHeight + Self.laneGap
        }
        if apps.count > Self.maximumAppLanes {
            canvas.text("and \(apps.count - Self.maximumAppLanes) more apps not drawn", x: Self.laneX, y: y + 10, size: 10, fill: "#555")
        }
        drawTimeAxis(&canvas, y: y)
    }

    private func drawLane(_ canvas: inout SVGCanvas, name: String, segments: [TimelineSegment], emptyNote: String, y: Double) {
        canvas.text(name, x: 20, y: y + Self.laneHeight * 0.68, size: 11, bold: true)
        canvas.rect(x: Self.laneX, y: y, width: Self.laneWidth, height: Self.laneHeight, fill: "#f3f4f6")
        if segments.isEmpty, !emptyNote.isEmpty {
            canvas.text(emptyNote, x: Self.laneX + 8, y: y + Self.laneHeight * 0.68, size: 10, fill: "#6b7280")
        }
        for segment in segments {
            let x1 = timeX(segment.from), x2 = max(timeX(segment.to), x1 + 1)
            canvas.rect(x: x1, y: y, width: x2 - x1, height: Self.laneHeight, fill: Self.stateColours[segment.label] ?? "#9ca3af", stroke: "#ffffff")
            // A label only where it fits (about 6 px a character at 10 px).
            if x2 - x1 > Double(segment.label.count) * 6 + 6 {
                canvas.text(segment.label, x: x1 + 4, y: y + Self.laneHeight * 0.68, size: 10, fill: "#111")
            }
        }
    }

    /// One app: denied stretches in red, a tick for every location it received (blue
    /// full, orange reduced), and a grey tick for each fix of the trace it did not get.
    private func drawAppLane(_ canvas: inout SVGCanvas, app: String, y: Double) {
        var authorization = LaneBuilder()
        for change in events.authorizations where change.app == app {
            authorization.change(to: change.allowsLocations ? "authorized" : "denied", at: Double(change.time.nanoseconds - trace.start.nanoseconds) / 1e9)
        }
        let short = app.count > 17 ? "…" + app.suffix(16) : app
        drawLane(&canvas, name: short, segments: authorization.finish(at: trace.duration), emptyNote: "", y: y)
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
    }

    private func drawTimeAxis(_ canvas: inout SVGCanvas, y: Double) {
        let axisY = min(y + 4, Double(Self.height) - 44)
        canvas.line(x1: Self.laneX, y1: axisY, x2: Self.laneX + Self.laneWidth, y2: axisY, stroke: "#6b7280")
        var t = 0.0
        while t <= trace.duration + 1e-9 {
            let x = timeX(t)
            canvas.line(x1: x, y1: axisY, x2: x, y2: axisY + 5, stroke: "#6b7280")
            canvas.text(NiceNumber.clock(t), x: x, y: axisY + 17, size: 10, anchor: .middle, fill: "#374151")
            t += timeStep
        }
        canvas.text("time from start", x: 20, y: axisY + 17, size: 10, fill: "#374151")
        drawLegend(&canvas, y: axisY + 38)
    }

    private func drawLegend(_ canvas: inout SVGCanvas, y: Double) {
        var x = 20.0
        let items: [(String, String)] = [("#16a34a", "start"), ("#dc2626", "end"), ("#3b82f6", "hAcc (68 %)"), ("#1d4ed8", "time tick")]
            + (events.hasApps ? [("#1d4ed8", "fix received"), ("#f59e0b", "reduced fix received"), ("#6b7280", "fix withheld"), ("#fecaca", "denied")] : [])
        for (colour, label) in items {
            canvas.circle(x: x + 5, y: y - 4, radius: 5, fill: colour)
            canvas.text(label, x: x + 14, y: y, size: 10, fill: "#374151")
            x += 14 + Double(label.count) * 6 + 18
        }
    }
}
