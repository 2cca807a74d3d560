/// Finds parts of a table's bytes by its format (docs/timezone.md, format 5), for tests that
/// damage one part and expect the load to refuse it.
enum ZoneTableBytes {
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }

    /// A refined cell's parts: where it starts, its palette's size (with the sea), its
    /// polyline count and where its polylines' bits start.
    struct Cell {
        var start = 0, palette = 0, lines = 0, bits = 0
    }

    /// Where the table's row cell starts and cell offsets lie.
    static func layout(_ bytes: [UInt8]) -> (rowRefined: Int, rowCells: Int, offsets: Int, blob: Int) {
        var at = 40
        for _ in 0..<u16(bytes, 10) { at += 1 + Int(bytes[at]) }
        let rowRefined = at + 4 * 721 + 4 * u32(bytes, 12), rowCells = rowRefined + 4 * 721, offsets = rowCells + 4 * 721
        return (rowRefined, rowCells, offsets, offsets + 2 * u32(bytes, 16))
    }

    /// Every refined cell, in order.
    static func cells(_ bytes: [UInt8]) -> [Cell] {
        let parts = layout(bytes)
        var out: [Cell] = []
        for row in 0..<720 {
            for slot in u32(bytes, parts.rowRefined + 4 * row)..<u32(bytes, parts.rowRefined + 4 * row + 4) {
                out.append(cell(bytes, at: parts.blob + u32(bytes, parts.rowCells + 4 * row) + u16(bytes, parts.offsets + 2 * slot)))
            }
        }
        return out
    }

    static func cell(_ bytes: [UInt8], at start: Int) -> Cell {
        var cell = Cell(start: start), at = start + 2
        let stored = Int(bytes[start]) & 15, second = Int(bytes[start + 1])
        cell.lines = second >> 2
        if cell.lines == 63 {
            var shift = 0
            while true {
                let b = Int(bytes[at])
                at += 1
                cell.lines += (b & 0x7F) << shift
                shift += 7
                if b & 0x80 == 0 { break }
            }
        }
        cell.palette = stored + (second & 1)
        cell.bits = at + (second & 2 != 0 ? 1 : 2) * stored
        return cell
    }

    /// The first refined cell of two zones: its number and parts.
    static func firstTwoZoneCell(_ bytes: [UInt8]) -> (Int, Cell) {
        guard let found = cells(bytes).enumerated().first(where: { $0.element.palette == 2 }) else {
            fatalError("no cell of two zones")
        }
        return (found.offset, found.element)
    }
}
