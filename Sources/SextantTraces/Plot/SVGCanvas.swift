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

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil, opacity: Double? = nil) {
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\" fill=\"\(Self.escape(fill))\""
        if let stroke { attributes += " stroke=\"\(Self.escape(stroke))\"" }
        if let opacity { attributes += " fill-opacity=\"\(n(opacity, 2))\"" }
        elements.append("<rect \(attributes)/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1) {
        elements.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(Self.escape(stroke))\" stroke-width=\"\(n(width))\"/>")
    }

    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double) {
        guard points.count >= 2 else { return }
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        elements.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(Self.escape(stroke))\" stroke-width=\"\(n(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>")
    }

    mutating func polygon(_ points: [(x: Double, y: Double)], fill: String) {
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        elements.append("<polygon points=\"\(list)\" fill=\"\(Self.escape(fill))\"/>")
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: String, stroke: String? = nil, opacity: Double? = nil) {
        var attributes = "cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(radius))\" fill=\"\(Self.escape(fill))\""
        if let stroke { attributes += " stroke=\"\(Self.escape(stroke))\"" }
        if let opacity { attributes += " fill-opacity=\"\(n(opacity, 2))\"" }
        elements.append("<circle \(attributes)/>")
    }

    enum Anchor: String { case start, middle, end }

    mutating func text(_ content: String, x: Double, y: Double, size: Double = 11, anchor: Anchor = .start, fill: String = "#222", bold: Bool = false) {
        let weight = bold ? " font-weight=\"bold\"" : ""
        elements.append(
            "<text x=\"\(n(x))\" y=\"\(n(y))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"\(n(size))\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(Self.escape(fill))\"\(weight)>\(Self.escape(content))</text>")
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

    private func n(_ value: Double, _ digits: Int = 1) -> String {
        let text = String(format: "%.\(digits)f", value.isFinite ? value : 0)
        return text == "-0.0" ? "0.0" : text
    }
}
