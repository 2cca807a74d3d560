import Foundation
import SextantProtocol
import SextantTraces

/// The movement figures of `trace info`, as JSON and as text.
extension TraceInfoJSON {
    static func motion(_ m: TraceMotion) -> JSONValue {
        func gap(_ g: TraceMotion.Gap) -> JSONValue { ["after": .double(g.after), "length": .double(g.length)] }
        var o: [String: JSONValue] = [
            "distance": .double(m.distance), "gapCount": .int(Int64(m.gapCount)), "gaps": .array(m.gaps.map(gap)),
            "longestGap": m.longestGap.map(gap) ?? .null, "rates": .object(m.rates.mapValues { .double($0) }), "speed": .null,
        ]
        if let s = m.speed { o["speed"] = ["min": .double(s.minimum), "median": .double(s.median), "max": .double(s.maximum)] }
        return .object(o)
    }

    static func motionLines(_ m: TraceMotion) -> [String] {
        var lines = [String(format: "Distance:  %.1f m", m.distance)]
        if let s = m.speed { lines.append(String(format: "Speed:     min %.2f, median %.2f, max %.2f m/s", s.minimum, s.median, s.maximum)) }
        if !m.rates.isEmpty {
            lines.append("Rates:     " + m.rates.sorted { $0.key < $1.key }.map { String(format: "%@ %.2f Hz", $0.key, $0.value) }.joined(separator: ", "))
        }
        var gaps = "Gaps > 1s: \(m.gapCount)"
        if let longest = m.longestGap { gaps += String(format: " (longest %.3f s after %.3f s)", longest.length, longest.after) }
        lines.append(gaps)
        return lines
    }
}
