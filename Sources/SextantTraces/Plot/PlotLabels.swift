/// A rectangle of the picture, in pixels, y down.
struct PlotBox: Equatable {
    var x0: Double, y0: Double, x1: Double, y1: Double

    func overlaps(_ other: PlotBox) -> Bool { x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1 }

    func inside(_ other: PlotBox) -> Bool { x0 >= other.x0 && x1 <= other.x1 && y0 >= other.y0 && y1 <= other.y1 }

    /// The box grown by `margin` on every side.
    func grown(_ margin: Double) -> PlotBox { PlotBox(x0: x0 - margin, y0: y0 - margin, x1: x1 + margin, y1: y1 + margin) }
}

/// How much room a text takes. The picture names DejaVu Sans first (what rsvg-convert and
/// Chromium on Debian draw with): its characters average about 0.6 em and its digits are
/// 0.64 em, so 0.66 em a character (0.72 bold) errs on the wide side, and a label laid out
/// with it does not touch its neighbour in any of the fonts the SVG names.
enum PlotText {
    static func width(_ text: String, size: Double, bold: Bool = false) -> Double {
        Double(text.count) * size * (bold ? 0.72 : 0.66)
    }

    /// The box of a text drawn at (x, y) (its baseline) with `anchor`.
    static func box(_ text: String, x: Double, y: Double, size: Double, anchor: SVGCanvas.Anchor = .start, bold: Bool = false) -> PlotBox {
        let w = width(text, size: size, bold: bold)
        let left = anchor == .start ? x : anchor == .middle ? x - w / 2 : x - w
        return PlotBox(x0: left, y0: y - size * 0.85, x1: left + w, y1: y + size * 0.25)
    }
}

/// Places labels where they overlap nothing placed before: each label is tried at its
/// candidate positions in turn and left out when none is free, so that the picture never
/// shows two texts over each other (a label left out is still in its mark's tooltip).
struct LabelPlacer {
    /// Where labels may go.
    let bounds: PlotBox
    private(set) var taken: [PlotBox] = []

    init(bounds: PlotBox) { self.bounds = bounds }

    /// Marks a box as taken (a scale bar, a marker) without a label.
    mutating func reserve(_ box: PlotBox) { taken.append(box) }

    /// The first candidate (baseline x, y and anchor) whose box is free, taken; nil if none is.
    mutating func place(_ text: String, size: Double, bold: Bool = false, candidates: [(x: Double, y: Double, anchor: SVGCanvas.Anchor)])
        -> (x: Double, y: Double, anchor: SVGCanvas.Anchor)?
    {
        for candidate in candidates {
            let box = PlotText.box(text, x: candidate.x, y: candidate.y, size: size, anchor: candidate.anchor, bold: bold)
            guard box.inside(bounds), !taken.contains(where: { $0.overlaps(box.grown(1)) }) else { continue }
            taken.append(box)
            return candidate
        }
        return nil
    }

    /// The four places beside a mark at (x, y), `gap` pixels away: right above, right
    /// below, left above, left below.
    static func around(x: Double, y: Double, gap: Double, size: Double) -> [(x: Double, y: Double, anchor: SVGCanvas.Anchor)] {
        [(x + gap, y - gap, .start), (x + gap, y + gap + size * 0.8, .start), (x - gap, y - gap, .end), (x - gap, y + gap + size * 0.8, .end)]
    }
}

/// How a lane's name is written in the column left of the lanes: whole on one line at 11 px
/// when it fits, else on two lines (broken after a dot where that balances them) at the
/// size that fits, 10 px at most and 6 px at least; past that, its middle is left out
/// (the whole id is in the lane's tooltip and the page's event list).
struct AppNameLayout: Equatable {
    var lines: [String]
    var size: Double

    static func single(_ name: String) -> AppNameLayout { AppNameLayout(lines: [name], size: 11) }

    init(lines: [String], size: Double) {
        self.lines = lines
        self.size = size
    }

    init(_ name: String, width: Double) {
        if PlotText.width(name, size: 11, bold: true) <= width {
            self = .single(name)
            return
        }
        let halves = Self.halves(name)
        let perPixel = halves.map { PlotText.width($0, size: 1, bold: true) }.max() ?? 1
        let size = (min(10, width / perPixel) * 10).rounded(.down) / 10
        if size >= 6 {
            self.init(lines: halves, size: size)
            return
        }
        let perLine = max(2, Int(width / PlotText.width("x", size: 6, bold: true)))
        self.init(lines: [name.prefix(perLine - 1) + "…", String(name.suffix(perLine))], size: 6)
    }

    /// Baselines of the lines in a lane whose top is `laneTop`.
    func baselines(laneTop: Double, laneHeight: Double) -> [Double] {
        lines.count == 1 ? [laneTop + laneHeight * 0.68] : [laneTop + size + 0.5, laneTop + 2 * size + 1.5]
    }

    /// The two lines: broken after the dot that best balances them, or in the middle when
    /// no dot comes within a fifth of the name (four characters at least) of it.
    private static func halves(_ name: String) -> [String] {
        let characters = Array(name)
        let middle = characters.count / 2
        var best = (cut: middle, score: characters.count - middle + max(4, characters.count / 5))
        for (index, character) in characters.enumerated() where character == "." && index + 1 < characters.count {
            let score = max(index + 1, characters.count - index - 1)
            if score < best.score { best = (index + 1, score) }
        }
        return [String(characters[..<best.cut]), String(characters[best.cut...])]
    }
}
