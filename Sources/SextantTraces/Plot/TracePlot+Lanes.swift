import Foundation
import SextantCore
import SextantProtocol

/// The lanes of what the daemon's engines decide beyond the sensors' states: the regions'
/// crossings (RULES R1–R9) and the heading (H1–H6), with the regions on the map.
extension TracePlot {
    static let regionsLane = "regions", headingLane = "heading"
    static let transitionColours = ["enter": "#059669", "exit": "#e11d48", "dwell": "#7c3aed", "state": "#6b7280"]
    static let regionColour = "#7c3aed"
    static let magneticColour = "#2563eb", trueHeadingColour = "#b45309", calibrateColour = "#fecaca"

    /// The legend's items of these lanes, where they are drawn.
    var laneLegend: [(colour: String, label: String)] {
        var items: [(colour: String, label: String)] = truth.isEmpty ? [] : [(Self.truthColour, "truth (reported: the track)")]
        if !regions.isEmpty {
            items += [(Self.regionColour, "region"), (Self.transitionColours["enter"]!, "enter"), (Self.transitionColours["exit"]!, "exit")]
            if crossings.contains(where: { $0.transition.kind == .dwell }) { items.append((Self.transitionColours["dwell"]!, "dwell")) }
        }
        if !zoneChanges.isEmpty { items.append((Self.zoneMarkColour, "time zone change")) }
        if heading.hasSamples {
            items += [(Self.magneticColour, "magnetic heading"), (Self.trueHeadingColour, "true heading")]
            if heading.calibration.contains(where: { $0.label == HeadingTimeline.calibrateLabel }) {
                items.append((Self.calibrateColour, "calibration needed"))
            }
        }
        return items
    }

    /// The crossings and the heading's calibration changes, for the page's event list and its tooltips.
    func laneEvents() -> [ListedEvent] {
        let names = traceLaneNames
        var listed: [ListedEvent] = []
        if let lane = names.firstIndex(of: Self.regionsLane) {
            listed += crossings.map { ListedEvent(t: $0.t, app: $0.transition.app, what: "region \($0.summary)", lane: lane) }
        }
        if let lane = names.firstIndex(of: Self.headingLane) {
            listed += heading.calibration.map { segment in
                let what = segment.label == HeadingTimeline.calibrateLabel ? "heading calibration needed" : "heading calibration clean"
                return ListedEvent(t: segment.from, what: what, lane: lane)
            }
        }
        if let lane = names.firstIndex(of: Self.timeZoneLane) { listed += timeZoneEvents(lane: lane) }
        return listed
    }

    /// One tick a crossing, coloured by its transition, its region and transition beside it
    /// where there is room before the next.
    func drawRegionsLane(_ canvas: inout SVGCanvas, y: Double) {
        drawLaneName(&canvas, AppNameLayout.single(Self.regionsLane), y: y)
        drawLane(&canvas, segments: [], emptyNote: crossings.isEmpty ? "no crossing" : "", y: y)
        var labelEnd = -Double.infinity
        for (index, crossing) in crossings.enumerated() {
            let x = timeX(crossing.t), name = crossing.transition.kind.name
            let title = "+\(NiceNumber.clock(crossing.t, step: 0.1)) · \(crossing.transition.app) · \(crossing.summary)"
            canvas.line(
                x1: x, y1: y, x2: x, y2: y + Self.laneHeight, stroke: Self.transitionColours[name] ?? "#6b7280", width: 2,
                extra: [("class", "region-crossing"), ("data-t", String(crossing.t)), ("data-region", crossing.transition.identifier), ("data-transition", name)],
                title: title)
            let label = crossing.summary, width = PlotText.width(label, size: 10)
            let nextX = index + 1 < crossings.count ? timeX(crossings[index + 1].t) : laneX + laneWidth
            if x + 3 > labelEnd, x + 3 + width < nextX - 2 {
                canvas.text(label, x: x + 3, y: y + Self.laneHeight * 0.68, size: 10, fill: "#111")
                labelEnd = x + 3 + width
            }
        }
    }

    /// The headings as lines over the lane, north (0°) at its top and 360° at its bottom,
    /// the lane red where the engine asks for calibration; a line breaks where it wraps.
    func drawHeadingLane(_ canvas: inout SVGCanvas, y: Double) {
        drawLaneName(&canvas, AppNameLayout.single(Self.headingLane), y: y)
        let needed = heading.calibration.filter { $0.label == HeadingTimeline.calibrateLabel }
        drawLane(&canvas, segments: [], emptyNote: heading.magnetic.isEmpty ? "no heading decided" : "", y: y)
        for segment in needed {
            let x1 = timeX(segment.from), x2 = max(timeX(segment.to), x1 + 1)
            canvas.rect(x: x1, y: y, width: x2 - x1, height: Self.laneHeight, fill: Self.calibrateColour, extra: [("class", "heading-calibration")],
                title: "calibration needed from +\(NiceNumber.clock(segment.from, step: 0.1)) to +\(NiceNumber.clock(segment.to, step: 0.1))")
        }
        canvas.line(x1: laneX, y1: y + Self.laneHeight / 2, x2: laneX + laneWidth, y2: y + Self.laneHeight / 2, stroke: "#d1d5db", width: 0.5)
        drawHeadingLine(&canvas, heading.trueHeading, colour: Self.trueHeadingColour, name: "heading-true", y: y)
        drawHeadingLine(&canvas, heading.magnetic, colour: Self.magneticColour, name: "heading-magnetic", y: y)
    }

    /// y of a heading on the lane whose top is `y`.
    func headingY(_ degrees: Double, lane y: Double) -> Double { y + Self.laneHeight * degrees / 360 }

    private func drawHeadingLine(_ canvas: inout SVGCanvas, _ points: [HeadingTimeline.Point], colour: String, name: String, y: Double) {
        var pieces: [[(x: Double, y: Double)]] = [[]]
        var last: HeadingTimeline.Point?
        for point in points {
            let p = (x: timeX(point.t), y: headingY(point.degrees, lane: y))
            if let last, abs(point.degrees - last.degrees) > 180 {
                pieces.append([])
            } else if let previous = pieces[pieces.count - 1].last, abs(previous.x - p.x) < Self.pathResolution {
                // One vertex a half pixel column, whatever the sample rate.
                continue
            }
            pieces[pieces.count - 1].append(p)
            last = point
        }
        for piece in pieces {
            if piece.count == 1 {
                canvas.circle(x: piece[0].x, y: piece[0].y, radius: 1, fill: colour, extra: [("class", name)])
            } else {
                canvas.polyline(piece, stroke: colour, width: 1.2, extra: [("class", name)])
            }
        }
    }

    /// Each region's circle (what scales with a zoom) and, dashed, the border beyond which a
    /// fix is outside (radius + hysteresis, R2).
    func drawRegionCircles(_ canvas: inout SVGCanvas) {
        for entry in regions {
            let centre = projection.pixel(GeoPoint(latitude: entry.region.latitude, longitude: entry.region.longitude))
            let radius = entry.region.radius * projection.scale
            let outer = (entry.region.radius + (entry.region.hysteresis ?? RegionMonitor.defaultHysteresisMetres)) * projection.scale
            let title = "\(entry.app) · \(entry.region.identifier): \(NiceNumber.distance(entry.region.radius)) radius"
            canvas.circle(x: centre.x, y: centre.y, radius: min(outer, 4000), fill: "none", stroke: Self.regionColour, extra: [("stroke-dasharray", "4 3"), ("class", "region-outer")])
            canvas.circle(x: centre.x, y: centre.y, radius: min(radius, 4000), fill: Self.regionColour, stroke: Self.regionColour, opacity: 0.1,
                extra: [("class", "region"), ("data-region", entry.region.identifier)], title: title)
        }
    }

    /// Each crossing where the fix that decided it was, as a pin coloured by its transition;
    /// each region's name at its centre where it overlaps no other text.
    func drawRegionMarks(_ canvas: inout SVGCanvas, labels: inout LabelPlacer) {
        for crossing in crossings {
            let p = pixel(crossing.fix), name = crossing.transition.kind.name
            let title = "+\(NiceNumber.clock(crossing.t, step: 0.1)) · \(crossing.transition.app) · \(crossing.summary)"
            pin(&canvas, at: p, extra: [("class", "region-crossing-mark")]) { canvas in
                canvas.polygon([(0, -5), (5, 0), (0, 5), (-5, 0)], fill: Self.transitionColours[name] ?? "#6b7280", title: title)
            }
        }
        for entry in regions {
            let centre = projection.pixel(GeoPoint(latitude: entry.region.latitude, longitude: entry.region.longitude))
            let spot = labels.place(entry.region.identifier, size: 10, candidates: LabelPlacer.around(x: centre.x, y: centre.y, gap: 0, size: 10))
            guard let spot else { continue }
            pin(&canvas, at: centre) { $0.text(entry.region.identifier, x: spot.x - centre.x, y: spot.y - centre.y, size: 10, anchor: spot.anchor, fill: "#5b21b6") }
        }
    }
}
