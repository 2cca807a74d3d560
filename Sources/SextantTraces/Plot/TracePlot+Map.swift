import Foundation
import SextantCore
import SextantProtocol

extension TracePlot {
    /// Accuracy circles drawn at most (evenly chosen), so that a long trace stays readable.
    static let maximumAccuracyCircles = 200
    /// Path vertices closer than this many pixels to the last drawn are left out.
    static let pathResolution = 0.5
    static let mapClipID = "map-clip"
    static let truthColour = "#64748b"

    /// The map: what scales with a zoom (tiles, accuracy circles, the path) in `map-view`,
    /// the marks and their labels, which keep their size, as pins in `map-pins`; both
    /// clipped to the map's frame, since an accuracy circle may be far wider than the track.
    func drawMap(_ canvas: inout SVGCanvas) {
        let f = mapFrame
        canvas.rect(x: f.x, y: f.y, width: f.width, height: f.height, fill: "#f4f6f8", stroke: "#c8ccd0")
        canvas.clipPath(id: Self.mapClipID, x: f.x, y: f.y, width: f.width, height: f.height)
        canvas.beginGroup([("id", "map"), ("clip-path", "url(#\(Self.mapClipID))")])
        canvas.beginGroup([("id", "map-view")])
        canvas.beginGroup([("id", "map-tiles")])
        canvas.endGroup()
        drawAccuracy(&canvas)
        drawRegionCircles(&canvas)
        // Under a GNSS profile, the true track under the reported one (N6).
        canvas.polyline(pathPoints(truth), stroke: Self.truthColour, width: 1.5, extra: [("stroke-dasharray", "5 4"), ("class", "truth")])
        let path = pathPoints(locations)
        canvas.polyline(path, stroke: "#1d4ed8", width: 2.5)
        canvas.endGroup()
        canvas.beginGroup([("id", "map-pins")])
        if path.count <= 400 {
            for p in path { pin(&canvas, at: p) { $0.circle(x: 0, y: 0, radius: 1.6, fill: "#1d4ed8") } }
        }
        drawHeadingArrows(&canvas)
        drawReceived(&canvas)
        var labels = mapLabelPlacer()
        drawEnds(&canvas, labels: &labels)
        drawTimeZoneMarks(&canvas, labels: &labels)
        drawTimeTicks(&canvas, labels: &labels)
        drawRegionMarks(&canvas, labels: &labels)
        canvas.beginPin(x: f.x, y: f.y, extra: [("id", "hover-mark"), ("visibility", "hidden")])
        canvas.circle(x: 0, y: 0, radius: 7, fill: "none", stroke: "#ea580c")
        canvas.endGroup()
        canvas.endGroup()
        canvas.endGroup()
        drawScaleBar(&canvas)
        drawNorthArrow(&canvas)
    }

    /// A mark drawn around its own origin at `p`.
    func pin(_ canvas: inout SVGCanvas, at p: (x: Double, y: Double), extra: SVGCanvas.Extra = [], draw: (inout SVGCanvas) -> Void) {
        canvas.beginPin(x: p.x, y: p.y, extra: extra)
        draw(&canvas)
        canvas.endGroup()
    }

    /// Labels on the map stay inside it and off the scale bar and the north arrow.
    private func mapLabelPlacer() -> LabelPlacer {
        let f = mapFrame
        var placer = LabelPlacer(bounds: PlotBox(x0: f.x + 2, y0: f.y + 2, x1: f.x + f.width - 2, y1: f.y + f.height - 2))
        placer.reserve(scaleBarBox)
        placer.reserve(PlotBox(x0: f.x + f.width - 42, y0: f.y + 8, x1: f.x + f.width - 14, y1: f.y + 62))
        return placer
    }

    /// The 68 % circles (`hAcc`) where they are big enough to see: at least 2 px.
    private func drawAccuracy(_ canvas: inout SVGCanvas) {
        let stride = max(1, locations.count / Self.maximumAccuracyCircles)
        for index in Swift.stride(from: 0, to: locations.count, by: stride) {
            let fix = locations[index].fix
            let radius = fix.horizontalAccuracy * projection.scale
            guard radius >= 2 else { continue }
            let p = pixel(fix)
            canvas.circle(x: p.x, y: p.y, radius: min(radius, 2000), fill: "#3b82f6", opacity: 0.08, extra: [("class", "accuracy")])
        }
    }

    private func pathPoints(_ fixes: [(offset: Int64, fix: LocationFix)]) -> [(x: Double, y: Double)] {
        var points: [(x: Double, y: Double)] = []
        for (_, fix) in fixes {
            let p = pixel(fix)
            if let last = points.last, abs(last.x - p.x) < Self.pathResolution, abs(last.y - p.y) < Self.pathResolution { continue }
            points.append(p)
        }
        return points
    }

    /// A dot at every round time along the path (between the fixes around it) and, where
    /// it overlaps no other text, the time since the start.
    private func drawTimeTicks(_ canvas: inout SVGCanvas, labels: inout LabelPlacer) {
        var ticks: [(t: Double, p: (x: Double, y: Double))] = []
        var index = 0
        var t = timeStep
        while t < trace.duration, ticks.count < 1000 {
            while index + 1 < locations.count, Double(locations[index + 1].offset) / 1e9 < t { index += 1 }
            guard index + 1 < locations.count else { break }
            let (a, b) = (locations[index], locations[index + 1])
            let (ta, tb) = (Double(a.offset) / 1e9, Double(b.offset) / 1e9)
            let share = tb > ta ? min(max((t - ta) / (tb - ta), 0), 1) : 0
            let pa = pixel(a.fix), pb = pixel(b.fix)
            ticks.append((t, (pa.x + (pb.x - pa.x) * share, pa.y + (pb.y - pa.y) * share)))
            t = (t / timeStep).rounded() * timeStep + timeStep
        }
        for tick in ticks { labels.reserve(PlotBox(x0: tick.p.x - 4, y0: tick.p.y - 4, x1: tick.p.x + 4, y1: tick.p.y + 4)) }
        for tick in ticks {
            let text = NiceNumber.clock(tick.t, step: timeStep)
            let spot = labels.place(text, size: 10, candidates: LabelPlacer.around(x: tick.p.x, y: tick.p.y, gap: 5, size: 10))
            pin(&canvas, at: tick.p, extra: [("class", "time-tick")]) { canvas in
                canvas.circle(x: 0, y: 0, radius: 3.5, fill: "#ffffff", stroke: "#1d4ed8", title: "+\(text)")
                if let spot { canvas.text(text, x: spot.x - tick.p.x, y: spot.y - tick.p.y, size: 10, anchor: spot.anchor, fill: "#1e3a8a") }
            }
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
            pin(&canvas, at: p) { canvas in
                canvas.line(x1: -3, y1: -3, x2: 3, y2: 3, stroke: "#6b7280", width: 1.5)
                canvas.line(x1: -3, y1: 3, x2: 3, y2: -3, stroke: "#6b7280", width: 1.5)
            }
        }
        marked = []
        for received in events.received where received.reduced {
            let p = projection.pixel(received.point)
            // A reduced fix may lie far off the map: only those within it (and its margin).
            let f = mapFrame
            guard (f.x...(f.x + f.width)).contains(p.x), (f.y...(f.y + f.height)).contains(p.y),
                marked.insert(Int(p.x.rounded()) * 10_000 + Int(p.y.rounded())).inserted
            else { continue }
            pin(&canvas, at: p) { $0.rect(x: -3.5, y: -3.5, width: 7, height: 7, fill: "#f59e0b", stroke: "#92400e") }
        }
    }

    private func drawEnds(_ canvas: inout SVGCanvas, labels: inout LabelPlacer) {
        let ends = [(pixel(locations[0].fix), "start", "#16a34a", "#166534"), (pixel(locations[locations.count - 1].fix), "end", "#dc2626", "#991b1b")]
        for (p, _, _, _) in ends { labels.reserve(PlotBox(x0: p.x - 8, y0: p.y - 8, x1: p.x + 8, y1: p.y + 8)) }
        for (p, name, fill, ink) in ends.reversed() {
            let spot = labels.place(name, size: 11, bold: true, candidates: LabelPlacer.around(x: p.x, y: p.y, gap: 9, size: 11))
            pin(&canvas, at: p, extra: [("class", name)]) { canvas in
                canvas.circle(x: 0, y: 0, radius: 7, fill: fill, stroke: "#ffffff")
                if let spot { canvas.text(name, x: spot.x - p.x, y: spot.y - p.y, size: 11, anchor: spot.anchor, fill: ink, bold: true) }
            }
        }
    }

    /// A round distance about a fifth of the map wide, bottom left.
    private var scaleBar: (metres: Double, length: Double, x: Double, y: Double) {
        let f = mapFrame
        let metres = NiceNumber.atMost(f.width / 5 / projection.scale)
        return (metres, metres * projection.scale, f.x + 16, f.y + f.height - 18)
    }

    private var scaleBarBox: PlotBox {
        let bar = scaleBar
        return PlotBox(x0: bar.x - 6, y0: bar.y - 20, x1: bar.x + bar.length + 6, y1: bar.y + 10)
    }

    private func drawScaleBar(_ canvas: inout SVGCanvas) {
        let (metres, length, x, y) = scaleBar
        canvas.beginGroup([("id", "scale-bar")])
        canvas.rect(x: x - 6, y: y - 20, width: length + 12, height: 30, fill: "#ffffff", opacity: 0.8)
        canvas.line(x1: x, y1: y, x2: x + length, y2: y, stroke: "#111", width: 2)
        canvas.line(x1: x, y1: y - 5, x2: x, y2: y + 5, stroke: "#111", width: 2)
        canvas.line(x1: x + length, y1: y - 5, x2: x + length, y2: y + 5, stroke: "#111", width: 2)
        canvas.text(NiceNumber.distance(metres), x: x + length / 2, y: y - 7, size: 11, anchor: .middle, fill: "#222")
        canvas.endGroup()
    }

    /// North is up in this projection: an arrow top right.
    private func drawNorthArrow(_ canvas: inout SVGCanvas) {
        let f = mapFrame
        let x = f.x + f.width - 28, y = f.y + 16
        canvas.polygon([(x, y), (x + 9, y + 26), (x, y + 20), (x - 9, y + 26)], fill: "#111")
        canvas.text("N", x: x, y: y + 42, size: 12, anchor: .middle, bold: true)
    }
}
