import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// Issue 40.7: `trace plot` draws a lane for each motion and environment kind a trace
/// carries (gyroscope, pressure, light, proximity, recorded activity), none for a kind it
/// does not, and for any trace with fixes the steps the step counter banks (A7).
@Suite("Trace plot: the motion kinds' lanes (issue 40.7)")
struct PlotMotionLanesTests {
    static let motionNames = ["gyroscope", "pressure", "light", "proximity", "activity", "steps"]

    /// Ten seconds walking north at 1.4 m/s (a fix a second: 1.4 m is 1.259e-5° of latitude),
    /// the phone turning at up to 1.5 rad/s, the pressure falling, the light rising, a pocket
    /// from 4 s to 6 s, and the phone's own word that it walks.
    static var walk: String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        lines.append(#"{"t":0,"activity":{"types":["walking"],"confidence":"high"}}"#)
        for n in 0...10 {
            let t = Double(n)
            lines.append(#"{"t":\#(t),"location":{"lat":\#(48.85 + 1.259e-5 * t),"lon":2.29,"hAcc":5,"speed":1.4}}"#)
            lines.append(#"{"t":\#(t),"gyro":{"x":0,"y":0,"z":\#(0.15 * t)}}"#)
            lines.append(#"{"t":\#(t),"pressure":{"hPa":\#(1013 - 0.1 * t)}}"#)
            lines.append(#"{"t":\#(t),"light":{"lux":\#(100 + 10 * t)}}"#)
            if n == 4 || n == 6 { lines.append(#"{"t":\#(t),"prox":{"near":\#(n == 4 ? 1 : 0)}}"#) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("issue 40.7: a trace with gyroscope, pressure, light, proximity and activity samples plots their lanes, and the steps")
    func motionLanes() throws {
        let svg = try PlotLanesTests.plot(Self.walk)
        let bold = Set(svg.texts.filter { $0.attributes["font-weight"] == "bold" }.map(\.text))
        for name in Self.motionNames { #expect(bold.contains(name), "a lane named \(name): \(bold.sorted())") }
        let tops = try Self.motionNames.map { try PlotLanesTests.lane(svg, $0).top }
        #expect(tops == tops.sorted() && Set(tops).count == tops.count, "one lane each, in order: \(tops)")
        // The lines: one vertex a sample, over the whole lane's time.
        #expect(PlotLanesTests.vertices(svg, "motion-gyroscope").count == 11)
        #expect(PlotLanesTests.vertices(svg, "motion-pressure").count == 11)
        let texts = svg.texts.map(\.text)
        #expect(texts.contains("0–1.5 rad/s") && texts.contains("1012–1013 hPa") && texts.contains("100–200 lux"), "\(texts)")
        // A7: 14 m at 1.4 m/s, 0.45 + 0.2 × 1.4 = 0.73 m a step: 19 whole steps.
        #expect(texts.contains("1–19 steps"), "\(texts)")
        #expect(texts.contains("near") && texts.contains("walking"), "the states written in their lanes: \(texts)")
    }

    @Test("issue 40.7: a trace without motion samples has none of their lanes but the steps its fixes derive")
    func noMotionLanes() throws {
        let svg = try PlotLanesTests.plot(PlotLanesTests.compassWalk)
        let bold = Set(svg.texts.filter { $0.attributes["font-weight"] == "bold" }.map(\.text))
        #expect(bold.intersection(Self.motionNames) == ["steps"], "\(bold.sorted())")
        // Two fixes at one place: a still phone counts none (A7).
        #expect(svg.texts.map(\.text).contains("0–0 steps"))
    }

    /// The walk of `walk` with its fixes alone: no activity recorded.
    static var plainWalk: String {
        walk.split(separator: "\n").filter { $0.contains("sextant") || $0.contains("location") }.joined(separator: "\n") + "\n"
    }

    @Test("A7: a trace with fixes and no recorded activity has the steps lane, derived from the fixes' speed by the step counter")
    func derivedStepsWithoutActivityA7() throws {
        let svg = try PlotLanesTests.plot(Self.plainWalk)
        let bold = Set(svg.texts.filter { $0.attributes["font-weight"] == "bold" }.map(\.text))
        #expect(bold.intersection(Self.motionNames) == ["steps"], "\(bold.sorted())")
        // The same 19 steps as with the phone's word that it walks: steps come from the walk.
        #expect(svg.texts.map(\.text).contains("1–19 steps"), "\(svg.texts.map(\.text))")
        #expect(PlotLanesTests.vertices(svg, "motion-steps").count == 10, "a vertex a stretch")
    }
}
