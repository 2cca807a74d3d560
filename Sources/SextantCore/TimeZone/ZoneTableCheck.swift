/// Checks a table's structure once, at load, so that lookups can read in place without
/// checks and always end: a refusal names what is wrong and where.
struct ZoneTableCheck {
    let table: ZoneTable
    var bytes: [UInt8] { table.bytes }
    var layout: ZoneTableLayout { table.layout }

    init(_ table: ZoneTable) { self.table = table }

    func run() throws {
        try checkRows()
        try checkCellOffsets()
        for slot in 0..<layout.refinedCount { try checkCell(slot) }
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

    private func cellOffset(_ slot: Int) -> Int { Int(layout.u32(bytes, layout.cellOffsets + 4 * slot)) }

    private func checkCellOffsets() throws {
        guard cellOffset(0) == 0, cellOffset(layout.refinedCount) == layout.blobCount else {
            throw fail("cell offsets do not span the \(layout.blobCount) bytes of cells")
        }
        for slot in 0..<layout.refinedCount where cellOffset(slot + 1) < cellOffset(slot) + ZoneCell.headerSize {
            throw fail("refined cell \(slot) is shorter than its header")
        }
    }

    /// The cell's parts fill its bytes exactly; every code is known; the checkpoints are the
    /// counts; every node's child lies after it (so a walk ends); every chord is the cell's
    /// and names palette entries; every polyline is whole (ZonePolylineCheck); every palette
    /// entry is a zone or the sea.
    private func checkCell(_ slot: Int) throws {
        let start = layout.blob + cellOffset(slot), end = layout.blob + cellOffset(slot + 1)
        let cell = ZoneCell(bytes, at: start)
        guard (1...14).contains(cell.paletteCount), cell.recordsEnd <= end else { throw fail("cell \(slot)'s parts do not fill its \(end - start) bytes") }
        for k in 0..<cell.paletteCount {
            let value = cell.paletteValue(bytes, k)
            guard Int(value) < table.zoneNames.count || value == ZoneTable.sea else { throw fail("cell \(slot) palette names zone \(value)") }
        }
        var nodes = 0, chords = 0
        for e in 0..<4 * cell.nodeCount {
            if e % ZoneCell.group == 0, cell.checkpoint(bytes, group: e / ZoneCell.group) != (nodes, chords) {
                throw fail("cell \(slot) checkpoint \(e / ZoneCell.group) miscounts")
            }
            let code = cell.code(bytes, e)
            guard code <= cell.chordCode else { throw fail("cell \(slot) code \(e) is \(code)") }
            if code == cell.nodeCode {
                nodes += 1
                guard nodes > e / 4, nodes < cell.nodeCount else { throw fail("cell \(slot) node \(e / 4) points outside the cell or back") }
            }
            if code == cell.chordCode { chords += 1 }
        }
        // A cell with no node is one chord leaf.
        let expected = cell.nodeCount == 0 ? (0, 1) : (cell.nodeCount - 1, chords)
        guard (nodes, cell.chordCount) == expected else {
            throw fail("cell \(slot) has \(cell.nodeCount) nodes and \(cell.chordCount) chords, its codes \(nodes + 1) and \(chords)")
        }
        var polylines = 0
        for k in 0..<cell.chordCount {
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
