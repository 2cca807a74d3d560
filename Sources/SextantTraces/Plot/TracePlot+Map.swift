import Foundation
import SextantCore
import SextantProtocol

extension TracePlot {
    /// Accuracy circles drawn at most (evenly chosen), so that a long trace stays readable.
    static let maximumAccuracyCircles = 200
    /// Path vertices closer than this many pixels to the last drawn are left out.
    static let pathResolution = 0.5

    func drawMap(_ canvas: inout SVGCanvas) {
        let f = Self.mapFrame
        canvas.rect(x: f.x, y: f.y, width: f.width, height: f.height, fill: "#f4f6f8", stroke: "#c8ccd0")
        drawAccuracy(&canvas)
        drawPath(&canvas)
        drawTimeTicks(&canvas)
        drawReceived(&canvas)
        drawEnds(&canvas)
        drawScaleBar(&canvas)
        drawNorthArrow(&canvas)
    }

    /// The 68 % circles (`hAcc`) where they are big enough to see: at least 2 px.
    private func drawAccuracy(_ canvas: inout SVGCanvas) {
        let stride = max(1, locations.count / Self.maximumAccuracyCircles)
        for index in Swift.stride(from: 0, to: locations.count, by: stride) {
            let fix = locations[index].fix
            let radius = fix.horizontalAccuracy * projection.scale
            guard radius >= 2 else { continue }
            let p = pixel(fix)
            canvas.circle(x: p.x, y: p.y, radius: min(radius, 2000), fill: "#3b82f6", opacity: 0.08)
        }
    }

    private func drawPath(_ canvas: inout SVGCanvas) {
        var points: [(x: Double, y: Double)] = []
        for (_, fix) in locations {
            let p = pixel(fix)
            if let last = points.last, abs(last.x - p.x) < Self.pathResolution, abs(last.y - p.y) < Self.pathResolution { continue }
            points.append(p)
        }
        canvas.polyline(points, stroke: "#1d4ed8", width: 2.5)
        for p in points where points.count <= 400 { canvas.circle(x: p.x, y: p.y, radius: 1.6, fill: "#1d4ed8") }
    }

    /// A dot and the time since the start at the first fix of every tick step.
    private func drawTimeTicks(_ canvas: inout SVGCanvas) {
        var next = timeStep
        for (offset, fix) in locations {
            let t = Double(offset) / 1e9
            guard t >= next, t < trace.duration else { continue }
            let p = pixel(fix)
            canvas.circle(x: p.x, y: p.y, radius: 3.5, fill: "#ffffff", stroke: "#1d4ed8")
            canvas.text(NiceNumber.clock(t), x: p.x + 6, y: p.y - 5, size: 10, fill: "#1e3a8a")
            next = ((t / timeStep).rounded(.down) + 1) * timeStep
        }
    }

    /// What the apps received (reduced fixes where the app saw them), and the fixes of
    /// the trace that no app received at their time (withheld).
    private func drawReceived(_ canvas: inout SVGCanvas) {
        guard events.hasApps else { return }
        let receivedTimes = Set(events.received.map { $0.time.nanoseconds / 1_000_000 })
        // One mark a pixel at most, whatever the number of fixes.
        var marked = Set<Int>()
        for (_, fix) in locations where !receivedTimes.contains(fix.time.nanoseconds / 1_000_000) {
            let p = pixel(fix)
            guard marked.insert(Int(p.x.rounded()) * 10_000 + Int(p.y.rounded())).inserted else { continue }
            canvas.line(x1: p.x - 3, y1: p.y - 3, x2: p.x + 3, y2: p.y + 3, stroke: "#6b7280", width: 1.5)
            canvas.line(x1: p.x - 3, y1: p.y + 3, x2: p.x + 3, y2: p.y - 3, stroke: "#6b7280", width: 1.5)
        }
        marked = []
        for received in events.received where received.reduced {
            let p = projection.pixel(received.point)
            // A reduced fix may lie far off the map: only those within it (and its margin).
            let f = Self.mapFrame
            guard (f.x...(f.x + f.width)).contains(p.x), (f.y...(f.y + f.height)).contains(p.y),
                marked.insert(Int(p.x.rounded()) * 10_000 + Int(p.y.rounded())).inserted
            else { continue }
            canvas.rect(x: p.x - 3.5, y: p.y - 3.5, width: 7, height: 7, fill: "#f59e0b", stroke: "#92400e")
        }
    }

    private func drawEnds(_ canvas: inout SVGCanvas) {
        let start = pixel(locations[0].fix), end = pixel(locations[locations.count - 1].fix)
        canvas.circle(x: end.x, y: end.y, radius: 7, fill: "#dc2626", stroke: "#ffffff")
        canvas.text("end", x: end.x + 10, y: end.y + 14, size: 11, fill: "#991b1b", bold: true)
        canvas.circle(x: start.x, y: start.y, radius: 7, fill: "#16a34a", stroke: "#ffffff")
        canvas.text("start", x: start.x + 10, y: start.y - 8, size: 11, fill: "#166534", bold: true)
    }

    /// A round distance about a fifth of the map wide, bottom left.
    private func drawScaleBar(_ canvas: inout SVGCanvas) {
        let f = Self.mapFrame
        let metres = NiceNumber.atMost(f.width / 5 / projection.scale)
        let length = metres * projection.scale
        let x = f.x + 16, y = f.y + f.height - 18
        canvas.rect(x: x - 6, y: y - 20, width: length + 12, height: 30, fill: "#ffffff", opacity: 0.8)
        canvas.line(x1: x, y1: y, x2: x + length, y2: y, stroke: "#111", width: 2)
        canvas.line(x1: x, y1: y - 5, x2: x, y2: y + 5, stroke: "#111", width: 2)
        canvas.line(x1: x + length, y1: y - 5, x2: x + length, y2: y + 5, stroke: "#111", width: 2)
        canvas.text(NiceNumber.distance(metres), x: x + length / 2, y: y - 7, size: 11, anchor: .middle)
    }

    /// North is up in this projection: an arrow top right.
    private func drawNorthArrow(_ canvas: inout SVGCanvas) {
        let f = Self.mapFrame
        let x = f.x + f.width - 28, y = f.y + 16
        canvas.polygon([(x, y), (x + 9, y + 26), (x, y + 20), (x - 9, y + 26)], fill: "#111")
        canvas.text("N", x: x, y: y + 42, size: 12, anchor: .middle, bold: true)
    }
}
