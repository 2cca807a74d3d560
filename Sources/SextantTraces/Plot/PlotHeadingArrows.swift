import Foundation
import SextantCore

/// Issue 21.5: the heading drawn along the map's track, from the same engine's series as
/// the heading lane (``HeadingTimeline``): an arrow where the device was at a heading's
/// time, pointing the way its top pointed, true heading where a fix was known, else
/// magnetic.
extension TracePlot {
    /// Arrows closer than this many pixels (on the unzoomed map) to the last one drawn are
    /// left out, so that they never overlap: the pins keep their size under a zoom.
    static let headingArrowSpacing = 36.0
    /// Arrows drawn at most, whatever the trace's length.
    static let maximumHeadingArrows = 400

    /// One arrow on the map: where, which way (degrees clockwise from north, the map's up),
    /// and whether it is the true heading.
    struct HeadingArrow {
        var t: Double
        var point: (x: Double, y: Double)
        var degrees: Double
        var isTrue: Bool
    }

    /// The arrows to draw: each heading the engine decided, placed on the track between
    /// the fixes around its time (at the first or last fix outside them), thinned by
    /// ``headingArrowSpacing``.
    var headingArrows: [HeadingArrow] {
        var arrows: [HeadingArrow] = []
        var trueIndex = 0, fixIndex = 0
        for point in heading.magnetic {
            while trueIndex < heading.trueHeading.count, heading.trueHeading[trueIndex].t < point.t { trueIndex += 1 }
            let trueHeading = trueIndex < heading.trueHeading.count && heading.trueHeading[trueIndex].t == point.t ? heading.trueHeading[trueIndex] : nil
            while fixIndex + 1 < locations.count, Double(locations[fixIndex + 1].offset) / 1e9 <= point.t { fixIndex += 1 }
            let p = trackPoint(at: point.t, after: fixIndex)
            if let last = arrows.last, hypot(p.x - last.point.x, p.y - last.point.y) < Self.headingArrowSpacing { continue }
            arrows.append(HeadingArrow(t: point.t, point: p, degrees: (trueHeading ?? point).degrees, isTrue: trueHeading != nil))
            if arrows.count == Self.maximumHeadingArrows { break }
        }
        return arrows
    }

    /// Where the track is at `t`, between fix `index` (the last at or before `t`, or the
    /// first) and the next.
    private func trackPoint(at t: Double, after index: Int) -> (x: Double, y: Double) {
        let a = locations[index]
        let ta = Double(a.offset) / 1e9
        guard t > ta, index + 1 < locations.count else { return pixel(a.fix) }
        let b = locations[index + 1]
        let tb = Double(b.offset) / 1e9
        let share = tb > ta ? min((t - ta) / (tb - ta), 1) : 0
        let pa = pixel(a.fix), pb = pixel(b.fix)
        return (pa.x + (pb.x - pa.x) * share, pa.y + (pb.y - pa.y) * share)
    }

    /// The arrows, as pins: each a head pointing up, turned by its heading.
    func drawHeadingArrows(_ canvas: inout SVGCanvas) {
        for arrow in headingArrows {
            let kind = arrow.isTrue ? "true" : "magnetic"
            let degrees = canvas.n(arrow.degrees)
            pin(&canvas, at: arrow.point, extra: [("class", "heading-arrow"), ("data-degrees", degrees), ("data-kind", kind)]) { canvas in
                canvas.beginGroup([("transform", "rotate(\(degrees))")])
                canvas.polygon(
                    [(0, -13), (5, -3), (0, -5.5), (-5, -3)], fill: arrow.isTrue ? Self.trueHeadingColour : Self.magneticColour,
                    title: "+\(canvas.n(arrow.t)) s: \(kind) heading \(canvas.n(arrow.degrees))°")
                canvas.endGroup()
            }
        }
    }
}
