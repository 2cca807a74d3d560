import Foundation

/// A minimal SVG 1.1 writer: elements appended in drawing order, numbers to 0.1 px,
/// every string (text and attribute values) through `escape`. Enough for the trace plot;
/// no layout, no styling engine.
struct SVGCanvas {
    let width: Int
    let height: Int
    private var elements: [String] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Attributes beyond an element's geometry: a class, `data-` members.
    typealias Extra = [(name: String, value: String)]

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil, opacity: Double? = nil, extra: Extra = [], title: String? = nil) {
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\" fill=\"\(Self.escape(fill))\""
        if let stroke { attributes += " stroke=\"\(Self.escape(stroke))\"" }
        if let opacity { attributes += " fill-opacity=\"\(n(opacity, 2))\"" }
        append("rect", attributes, extra: extra, title: title)
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, extra: Extra = [], title: String? = nil) {
        append("line", "x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(Self.escape(stroke))\" stroke-width=\"\(n(width))\"", extra: extra, title: title)
    }

    /// A line through `points`; its stroke keeps its width when the map is zoomed.
    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double, extra: Extra = []) {
        guard points.count >= 2 else { return }
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        let more = extra.map { " \($0.name)=\"\(Self.escape($0.value))\"" }.joined()
        elements.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(Self.escape(stroke))\" stroke-width=\"\(n(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\" vector-effect=\"non-scaling-stroke\"\(more)/>")
    }

    mutating func polygon(_ points: [(x: Double, y: Double)], fill: String, extra: Extra = [], title: String? = nil) {
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        append("polygon", "points=\"\(list)\" fill=\"\(Self.escape(fill))\"", extra: extra, title: title)
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: String, stroke: String? = nil, opacity: Double? = nil, extra: Extra = [], title: String? = nil) {
        var attributes = "cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(radius))\" fill=\"\(Self.escape(fill))\""
        if let stroke { attributes += " stroke=\"\(Self.escape(stroke))\"" }
        if let opacity { attributes += " fill-opacity=\"\(n(opacity, 2))\"" }
        append("circle", attributes, extra: extra, title: title)
    }

    enum Anchor: String { case start, middle, end }

    mutating func text(_ content: String, x: Double, y: Double, size: Double = 11, anchor: Anchor = .start, fill: String = "#222", bold: Bool = false, extra: Extra = []) {
        let weight = (bold ? " font-weight=\"bold\"" : "") + extra.map { " \($0.name)=\"\(Self.escape($0.value))\"" }.joined()
        elements.append(
            "<text x=\"\(n(x))\" y=\"\(n(y))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"\(n(size))\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(Self.escape(fill))\"\(weight)>\(Self.escape(content))</text>")
    }

    /// Opens a group; every `beginGroup` is closed by an `endGroup`.
    mutating func beginGroup(_ attributes: Extra) {
        elements.append("<g" + attributes.map { " \($0.name)=\"\(Self.escape($0.value))\"" }.joined() + ">")
    }

    mutating func endGroup() { elements.append("</g>") }

    /// A group drawn at (x, y): what it holds is drawn around its own origin, so that the
    /// page's script can move it (a pin on a zoomed map) without scaling it.
    mutating func beginPin(x: Double, y: Double, extra: Extra = []) {
        beginGroup([("transform", "translate(\(n(x)) \(n(y)))"), ("data-x", n(x)), ("data-y", n(y))] + extra)
    }

    /// A clip path named `id`: the rectangle.
    mutating func clipPath(id: String, x: Double, y: Double, width: Double, height: Double) {
        elements.append("<defs><clipPath id=\"\(Self.escape(id))\">\n<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\"/>\n</clipPath></defs>")
    }

    private mutating func append(_ name: String, _ attributes: String, extra: Extra, title: String?) {
        let more = extra.map { " \($0.name)=\"\(Self.escape($0.value))\"" }.joined()
        if let title {
            elements.append("<\(name) \(attributes)\(more)><title>\(Self.escape(title))</title></\(name)>")
        } else {
            elements.append("<\(name) \(attributes)\(more)/>")
        }
    }

    /// The whole document, with `title` as its accessible name.
    func document(title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
            + "<title>\(Self.escape(title))</title>\n" + elements.joined(separator: "\n") + "\n</svg>\n"
    }

    /// `text` as XML 1.0 character data or a quoted attribute value, for the SVG and the
    /// HTML page alike: `&`, `<`, `>` and `"` as entities, and each character XML 1.0
    /// cannot hold even as a reference (the C0 controls other than tab, newline and
    /// carriage return; U+FFFE and U+FFFF) as U+FFFD, the replacement character. (A lone
    /// surrogate cannot occur in a Swift string.) An app id or a file name may hold any of
    /// them, and one such byte makes the whole document unreadable to an XML parser.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { escaped($0) != nil }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = escaped(scalar) { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// What `scalar` is written as, if not as itself.
    private static func escaped(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x26: "&amp;"
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x22: "&quot;"
        case 0x09, 0x0A, 0x0D: nil
        case 0x00..<0x20, 0xFFFE, 0xFFFF: "\u{FFFD}"
        default: nil
        }
    }

    func n(_ value: Double, _ digits: Int = 1) -> String {
        let text = String(format: "%.\(digits)f", value.isFinite ? value : 0)
        return text == "-0.0" ? "0.0" : text
    }
}
