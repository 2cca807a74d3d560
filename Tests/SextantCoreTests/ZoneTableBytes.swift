/// Finds parts of a table's bytes by its format (docs/timezone.md, format 4), for tests that
/// damage one part and expect the load to refuse it.
enum ZoneTableBytes {
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }

    /// A refined cell's parts: where it starts, its palette's size, nodes and lines, where its
    /// codes and records start, a record's bits and an end's.
    struct Cell {
        var start = 0, palette = 0, nodes = 0, lines = 0, codes = 0, records = 0, recordBits = 0, endBits = 0
        var polylines: Int { records + (lines * recordBits + 7) / 8 }
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
        let flags = Int(bytes[start]), stored = flags & 15
        func varint() -> Int {
            var value = 0, shift = 0
            while true {
                let b = Int(bytes[at])
                at += 1
                value |= (b & 0x7F) << shift
                shift += 7
                if b & 0x80 == 0 { return value }
            }
        }
        (cell.nodes, cell.lines) = flags & 0x20 != 0 ? (0, 1) : (varint(), varint())
        cell.palette = stored + (flags & 0x10 != 0 ? 1 : 0)
        cell.endBits = Int(bytes[start + 1])
        cell.recordBits = 2 * cell.endBits + (cell.palette <= 2 ? 0 : 8)
        let bits = cell.palette <= 2 ? 2 : 4
        cell.codes = at + (flags & 0x40 != 0 ? 1 : 2) * stored
        cell.records = cell.codes + (4 * cell.nodes * bits + 7) / 8 + 4 * max(0, (4 * cell.nodes + 63) / 64 - 1)
        return cell
    }

    /// The first cell holding a polyline leaf, and where its first polyline starts.
    static func firstPolyline(_ bytes: [UInt8]) -> (slot: Int, line: Int)? {
        for (slot, cell) in cells(bytes).enumerated() {
            let mask = 1 << cell.endBits - 1
            let polylines = (0..<cell.lines).filter { k in
                let bit = 8 * cell.records + k * cell.recordBits
                let word = (0..<4).reduce(0) { (bit >> 3) + $1 < bytes.count ? $0 | Int(bytes[(bit >> 3) + $1]) << (8 * $1) : $0 } >> (bit & 7)
                return word & mask == (word >> cell.endBits) & mask
            }
            if !polylines.isEmpty { return (slot, cell.polylines) }
        }
        return nil
    }

    /// The first refined cell with at least that many nodes: its number and parts.
    static func firstCell(_ bytes: [UInt8], nodesAtLeast: Int) -> (Int, Cell) {
        guard let found = cells(bytes).enumerated().first(where: { $0.element.nodes >= nodesAtLeast }) else {
            fatalError("no cell with \(nodesAtLeast) nodes")
        }
        return (found.offset, found.element)
    }
}
