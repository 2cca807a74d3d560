/// Checks a table's structure once, at load, so that lookups can read in place without
/// checks and always end: a refusal names what is wrong and where.
struct ZoneTableCheck {
    let table: ZoneTable
    var bytes: [UInt8] { table.bytes }
    var layout: ZoneTableLayout { table.layout }

    init(_ table: ZoneTable) { self.table = table }

    func run() throws {
        try checkRows()
        try checkCells()
    }

    private func fail(_ what: String) -> ZoneTableError { .badStructure(what) }

    private func rowRuns(_ row: Int) -> Int { Int(layout.u32(bytes, layout.rowRuns + 4 * row)) }
    private func rowRefined(_ row: Int) -> Int { Int(layout.u32(bytes, layout.rowRefined + 4 * row)) }

    /// Each row's runs start at column 0 and ascend; a value is a zone, the sea, absent, or
    /// a refined run whose rank in its row is the count of refined cells before it.
    private func checkRows() throws {
        guard rowRuns(0) == 0, rowRuns(table.rows) == layout.runCount, rowRefined(0) == 0,
              rowRefined(table.rows) == layout.refinedCount else {
            throw fail("row offsets do not span the \(layout.runCount) runs and \(layout.refinedCount) refined cells")
        }
        for row in 0..<table.rows {
            let first = rowRuns(row), end = rowRuns(row + 1)
            guard first < end, end <= layout.runCount, layout.u16(bytes, layout.runs + 4 * first) == 0 else {
                throw fail("row \(row) does not start at column 0")
            }
            var refinedInRow = 0
            for run in first..<end {
                let start = Int(layout.u16(bytes, layout.runs + 4 * run)), value = layout.u16(bytes, layout.runs + 4 * run + 2)
                let next = run + 1 < end ? Int(layout.u16(bytes, layout.runs + 4 * run + 4)) : table.columns
                guard start < next, next <= table.columns else { throw fail("row \(row) run \(run - first) out of order") }
                if value >= ZoneTable.refined {
                    guard Int(value & 0x7FFF) == refinedInRow else { throw fail("row \(row) run \(run - first) miscounts its refined cells") }
                    refinedInRow += next - start
                } else if Int(value) >= table.zoneNames.count, value != ZoneTable.sea, value != ZoneTable.absent {
                    throw fail("row \(row) names zone \(value) of \(table.zoneNames.count)")
                }
            }
            guard rowRefined(row + 1) - rowRefined(row) == refinedInRow else { throw fail("row \(row)'s refined count") }
        }
    }

    /// Each row's cells lie in its stretch of the cells' bytes, the first at its start, in
    /// order, each at least a header long, the last ending where the next row's begin.
    private func checkCells() throws {
        guard layout.rowCellsStart(bytes, row: 0) == 0, layout.rowCellsStart(bytes, row: table.rows) == layout.blobCount else {
            throw fail("row cell offsets do not span the \(layout.blobCount) bytes of cells")
        }
        for row in 0..<table.rows {
            let rowStart = layout.rowCellsStart(bytes, row: row), rowEnd = layout.rowCellsStart(bytes, row: row + 1)
            let slots = rowRefined(row)..<rowRefined(row + 1)
            guard rowStart <= rowEnd, slots.isEmpty == (rowStart == rowEnd) else { throw fail("row \(row)'s cells span \(rowEnd - rowStart) bytes") }
            for slot in slots {
                let start = layout.blob + rowStart + Int(layout.u16(bytes, layout.cellOffsets + 2 * slot))
                let end = slot + 1 < slots.upperBound ? layout.blob + rowStart + Int(layout.u16(bytes, layout.cellOffsets + 2 * slot + 2))
                    : layout.blob + rowEnd
                guard slot > slots.lowerBound || start == layout.blob + rowStart, start + 2 <= end else {
                    throw fail("refined cell \(slot) is out of order or shorter than its header")
                }
                try checkCell(slot, start: start, end: end)
            }
        }
    }

    /// The cell's header is known (flags, a palette of 1–14, record ends of 2–12 bits, counts
    /// within the checkpoints' 16 bits); its parts fill its bytes exactly; every code is
    /// known; the checkpoints are the counts; every node's child lies after it (so a walk
    /// ends); every line names palette entries; every polyline is whole (ZonePolylineCheck);
    /// every stored palette entry is a zone.
    private func checkCell(_ slot: Int, start: Int, end: Int) throws {
        let cell = ZoneCell(bytes, at: start), flags = Int(bytes[start])
        guard flags & 0x80 == 0, (1...14).contains(cell.paletteCount), (2...ZoneCell.maxEndBits).contains(cell.endBits),
              cell.nodeCount < 1 << 16, cell.lineCount < 1 << 16, flags & ZoneCell.oneLineFlag != 0 || cell.nodeCount > 0 else {
            throw fail("cell \(slot)'s header is not one the format knows")
        }
        guard cell.palette <= end, cell.recordsEnd <= end else { throw fail("cell \(slot)'s parts do not fill its \(end - start) bytes") }
        for k in 0..<cell.storedPalette where Int(cell.paletteValue(bytes, k)) >= table.zoneNames.count {
            throw fail("cell \(slot) palette names zone \(cell.paletteValue(bytes, k))")
        }
        let chords = try checkCodes(slot, cell)
        // A cell with no node is one line leaf.
        let expected = cell.nodeCount == 0 ? 1 : chords
        guard cell.lineCount == expected else {
            throw fail("cell \(slot) has \(cell.nodeCount) nodes and \(cell.lineCount) lines, its codes \(expected)")
        }
        var polylines = 0
        for k in 0..<cell.lineCount {
            let chord = cell.chord(bytes, k)
            guard chord.left < cell.paletteCount, chord.right >= 0, chord.right < cell.paletteCount else {
                throw fail("cell \(slot) chord \(k) names palette entries \(chord.left), \(chord.right) of \(cell.paletteCount)")
            }
            if chord.a == chord.b {
                guard chord.a == polylines else { throw fail("cell \(slot) chord \(k) names polyline \(chord.a), not \(polylines)") }
                polylines += 1
            }
        }
        try ZonePolylineCheck(bytes: bytes, cell: cell, end: end, count: polylines).run { fail("cell \(slot) \($0)") }
    }
}

extension ZoneTableCheck {
    /// Walks the cell's codes: each known, the checkpoints the counts so far, every node's
    /// child after it and within the cell. Returns the count of line codes.
    func checkCodes(_ slot: Int, _ cell: ZoneCell) throws -> Int {
        var nodes = 0, chords = 0
        for e in 0..<4 * cell.nodeCount {
            if e % ZoneCell.group == 0, e > 0, cell.checkpoint(bytes, group: e / ZoneCell.group) != (nodes, chords) {
                throw ZoneTableError.badStructure("cell \(slot) checkpoint \(e / ZoneCell.group) miscounts")
            }
            let code = cell.code(bytes, e)
            guard code <= cell.chordCode else { throw ZoneTableError.badStructure("cell \(slot) code \(e) is \(code)") }
            if code == cell.nodeCode {
                nodes += 1
                guard nodes > e / 4, nodes < cell.nodeCount else {
                    throw ZoneTableError.badStructure("cell \(slot) node \(e / 4) points outside the cell or back")
                }
            }
            if code == cell.chordCode { chords += 1 }
        }
        if cell.nodeCount > 0, nodes != cell.nodeCount - 1 {
            throw ZoneTableError.badStructure("cell \(slot) has \(cell.nodeCount) nodes, its codes \(nodes + 1)")
        }
        return chords
    }
}
