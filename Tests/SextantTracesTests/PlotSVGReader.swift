import Foundation

/// Reads a plot's SVG back into its elements, as a test checks what is drawn where: each
/// element's name, attributes and text, where its `translate`s put it, and the clip paths
/// of its groups. The SVG is the one `SVGCanvas` writes (double-quoted attributes, no CDATA).
struct PlotSVGReader {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// Character data up to the element's end (a text's content, a title's words).
        var text: String
        /// The sum of the `translate(x y)` of the groups around it.
        var offset: (x: Double, y: Double)
        /// The `clip-path` of each group around it.
        var clips: [String]
        /// The `<title>` inside it, if any.
        var title: String?

        func number(_ name: String) -> Double { Double(attributes[name] ?? "") ?? .nan }
        var x: Double { number("x") + offset.x }
        var y: Double { number("y") + offset.y }
    }

    var elements: [Element] = []

    init(_ svg: String) {
        var groups: [(translate: (Double, Double), clip: String?)] = []
        var rest = Substring(svg)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if rest.hasPrefix("/") {
                if rest.hasPrefix("/g>"), !groups.isEmpty { groups.removeLast() }
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            let selfClosing = tag.hasSuffix("/")
            let name = String(tag.prefix { !$0.isWhitespace && $0 != "/" })
            let attributes = Self.attributes(tag.dropFirst(name.count))
            rest = rest[rest.index(after: close)...]
            let text = Self.unescape(String(rest.prefix { $0 != "<" }))
            let offset = groups.reduce((0.0, 0.0)) { ($0.0 + $1.translate.0, $0.1 + $1.translate.1) }
            var element = Element(name: name, attributes: attributes, text: text, offset: offset, clips: groups.compactMap(\.clip))
            if !selfClosing, name != "g", rest.hasPrefix("<title>"), let end = rest.range(of: "</title>") {
                element.title = Self.unescape(String(rest[rest.index(rest.startIndex, offsetBy: 7)..<end.lowerBound]))
            }
            if name == "g", !selfClosing { groups.append((Self.translate(attributes["transform"]), attributes["clip-path"])) }
            elements.append(element)
        }
    }

    private static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while let equals = rest.range(of: "=\"") {
            let key = rest[..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
            let valueStart = equals.upperBound
            guard let end = rest[valueStart...].firstIndex(of: "\"") else { break }
            result[key] = unescape(String(rest[valueStart..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return result
    }

    private static func translate(_ transform: String?) -> (Double, Double) {
        guard let transform, transform.hasPrefix("translate(") else { return (0, 0) }
        let numbers = transform.dropFirst(10).dropLast().split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : (0, 0)
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The texts drawn (not the document's or an element's title).
    var texts: [Element] { elements.filter { $0.name == "text" } }

    /// A text's box as a reader sees it: DejaVu Sans averages about 0.6 em a character
    /// (digits 0.64), bold a little more; the box spans the font size above the baseline.
    static func box(_ text: Element) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let size = text.number("font-size")
        let width = Double(text.text.count) * size * (text.attributes["font-weight"] == "bold" ? 0.64 : 0.58)
        let left: Double
        switch text.attributes["text-anchor"] {
        case "middle": left = text.x - width / 2
        case "end": left = text.x - width
        default: left = text.x
        }
        return (left, text.y - size * 0.8, left + width, text.y + size * 0.2)
    }

    static func overlap(_ a: (x0: Double, y0: Double, x1: Double, y1: Double), _ b: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
        a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    }
}
