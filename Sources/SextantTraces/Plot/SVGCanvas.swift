import Foundation

/// A minimal SVG 1.1 writer: elements appended in drawing order, numbers to 0.1 px,
/// text escaped. Enough for the trace plot; no layout, no styling engine.
struct SVGCanvas {
    let width: Int
    let height: Int
    private var elements: [String] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil, opacity: Double? = nil) {
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        if let opacity { attributes += " fill-opacity=\"\(n(opacity, 2))\"" }
        elements.append("<rect \(attributes)/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1) {
        elements.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\"/>")
    }

    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double) {
        guard points.count >= 2 else { return }
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        elements.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>")
    }

    mutating func polygon(_ points: [(x: Double, y: Double)], fill: String) {
        let list = points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        elements.append("<polygon points=\"\(list)\" fill=\"\(fill)\"/>")
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: String, stroke: String? = nil, opacity: Double? = nil) {
        var attributes = "cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(radius))\" fill=\"\(fill)\""
        if let stroke { attributes += " stroke=\"\(stroke)\"" }
        if let opacity { attributes += " fill-opacity=\"\(n(opacity, 2))\"" }
        elements.append("<circle \(attributes)/>")
    }

    enum Anchor: String { case start, middle, end }

    mutating func text(_ content: String, x: Double, y: Double, size: Double = 11, anchor: Anchor = .start, fill: String = "#222", bold: Bool = false) {
        let weight = bold ? " font-weight=\"bold\"" : ""
        elements.append(
            "<text x=\"\(n(x))\" y=\"\(n(y))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"\(n(size))\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(fill)\"\(weight)>\(Self.escape(content))</text>")
    }

    /// The whole document, with `title` as its accessible name.
    func document(title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
            + "<title>\(Self.escape(title))</title>\n" + elements.joined(separator: "\n") + "\n</svg>\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private func n(_ value: Double, _ digits: Int = 1) -> String {
        let text = String(format: "%.\(digits)f", value.isFinite ? value : 0)
        return text == "-0.0" ? "0.0" : text
    }
}
