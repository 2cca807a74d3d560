import Foundation
import SextantCore
import Testing

/// Issue 21.5: heading arrows along the map's track, read back from the SVG: where they
/// are, which way the drawn head points, and which heading (true or magnetic) they show.
@Suite("Trace plot: heading arrows along the track (issue 21.5)")
struct PlotHeadingArrowsTests {
    /// A walk east along 48.85°N, a fix a second from 1 s to 60 s, 10 m each (about 440 m);
    /// before the first fix a flat device's magnetometer whose top points magnetic east
    /// (`PlotLanesTests.compassWalk`: (−20, 0, −40) µT is 90°), then a compass that says
    /// true 90° twice a second.
    static func eastWalk(compass: Bool) -> String {
        let metre = 1 / (111_195.0 * cos(48.85 * .pi / 180))
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        if compass {
            lines += [#"{"t":0,"accel":{"x":0,"y":0,"z":9.81}}"#, #"{"t":0.5,"magnet":{"x":-20,"y":0,"z":-40}}"#]
        }
        for second in 1...60 {
            lines.append(#"{"t":\#(second),"location":{"lat":48.85,"lon":\#(2.35 + Double(second) * 10 * metre),"hAcc":3}}"#)
            if compass {
                lines += [#"{"t":\#(second),"compass":{"true":90}}"#, #"{"t":\#(Double(second) + 0.5),"compass":{"true":90}}"#]
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Each arrow: its pin's place, the `data-` heading and kind, and the way its drawn
    /// head points (the polygon's tip turned by the group's `rotate`), degrees clockwise
    /// from the map's up (north).
    static func arrows(_ svg: PlotSVGReader) -> [(x: Double, y: Double, degrees: Double, kind: String, drawn: Double)] {
        svg.elements.indices.compactMap { index in
            let pin = svg.elements[index]
            guard pin.attributes["class"] == "heading-arrow", index + 2 < svg.elements.count else { return nil }
            let turn = svg.elements[index + 1].attributes["transform"] ?? ""
            let angle = Double(turn.dropFirst("rotate(".count).dropLast()) ?? .nan
            let tip = (svg.elements[index + 2].attributes["points"] ?? "").split(separator: " ")[0].split(separator: ",").compactMap { Double($0) }
            let radians = angle * .pi / 180
            // SVG's rotate turns clockwise on screen (y down).
            let x = tip[0] * cos(radians) - tip[1] * sin(radians), y = tip[0] * sin(radians) + tip[1] * cos(radians)
            let drawn = HeadingMath.normalized(atan2(x, -y) * 180 / .pi)
            return (pin.number("data-x"), pin.number("data-y"), pin.number("data-degrees"), pin.attributes["data-kind"] ?? "", drawn)
        }
    }

    @Test("issue 21.5: a walk east draws arrows at 90° along the track, thinned apart; magnetic before the first fix, true after")
    func arrowsAlongAWalkEast() throws {
        let svg = try PlotLanesTests.plot(Self.eastWalk(compass: true))
        let arrows = Self.arrows(svg)
        try #require(arrows.count >= 5, "arrows along 440 m: \(arrows.count)")
        #expect(arrows.count < 60, "thinned: not one a heading (120 of them)")
        #expect(arrows[0].kind == "magnetic", "before the first fix, no true heading")
        #expect(arrows.dropFirst().allSatisfy { $0.kind == "true" })
        for arrow in arrows {
            #expect(HeadingMath.separation(arrow.drawn, 90) < 1, "drawn pointing east: \(arrow)")
            #expect(HeadingMath.separation(arrow.degrees, 90) < 1, "\(arrow)")
        }
        let path = try #require(svg.elements.first { $0.name == "polyline" && $0.attributes["stroke"] == "#1d4ed8" }?.attributes["points"])
        let y = path.split(separator: " ")[0].split(separator: ",").compactMap { Double($0) }[1]
        #expect(arrows.allSatisfy { abs($0.y - y) < 1 }, "on the track (a line along 48.85°N)")
        let xs = arrows.map(\.x)
        // 36 px: `TracePlot.headingArrowSpacing`, an arrow's length and a half.
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 >= 36 }, "apart, left to right: \(xs)")
    }

    @Test("issue 21.5: a trace with no heading draws no arrow")
    func noHeadingNoArrows() throws {
        let svg = try PlotLanesTests.plot(Self.eastWalk(compass: false))
        #expect(Self.arrows(svg).isEmpty)
        #expect(!svg.elements.contains { $0.attributes["class"] == "heading-arrow" })
    }
}
