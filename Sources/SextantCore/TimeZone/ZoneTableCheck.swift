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

    /// The cell's header is known (a palette of 2–16 zones holding the corner, 1–65,535
    /// polylines); every stored palette entry is a zone; its polylines fill its bytes exactly
    /// and each is whole (ZoneLineCheck).
    private func checkCell(_ slot: Int, start: Int, end: Int) throws {
        let cell = ZoneCell(bytes, at: start)
        guard (2...16).contains(cell.paletteCount), cell.corner < cell.paletteCount, (1..<1 << 16).contains(cell.lineCount) else {
            throw fail("cell \(slot)'s header is not one the format knows")
        }
        guard cell.lines <= end else { throw fail("cell \(slot)'s parts do not fill its \(end - start) bytes") }
        for k in 0..<cell.storedPalette where Int(cell.paletteValue(bytes, k)) >= table.zoneNames.count {
            throw fail("cell \(slot) palette names zone \(cell.paletteValue(bytes, k))")
        }
        try ZoneLineCheck(bytes: bytes, cell: cell, gridShift: table.gridShift, end: end).run { fail("cell \(slot) \($0)") }
    }
}

/// A cell's polylines fill its bytes after the palette exactly (less than a byte of padding),
/// and each is whole: its fields within those bytes, left and right two different palette
/// entries, deltas of 1–15 bits, a first vertex on the edge at a place round it, every vertex
/// inside the cell. So a lookup reads only the cell's own bytes, never divides by zero, and
/// its work is bounded by the cell's size.
struct ZoneLineCheck {
    let bytes: [UInt8]
    let cell: ZoneCell
    let gridShift: Int
    /// One past the cell's last byte.
    let end: Int

    func run(_ fail: (String) -> ZoneTableError) throws {
        let grid = 1 << gridShift, limit = 8 * end
        var reader = BitReader(bytes, at: cell.lines)
        for k in 0..<cell.lineCount {
            let labelBits = cell.paletteCount > 2 ? 8 : 0
            guard reader.bit + 13 + labelBits <= limit else { throw fail("polyline \(k) starts past its end") }
            let count = reader.take(8) + 2
            let labels = labelBits > 0 ? reader.take(8) : 1 << 4
            let (left, right) = (labels & 15, labels >> 4)
            let onEdge = reader.take(1) == 1, deltaBits = reader.take(4)
            let startBits = onEdge ? gridShift + 2 : 2 * gridShift
            guard left != right, left < cell.paletteCount, right < cell.paletteCount, deltaBits >= 1,
                  reader.bit + startBits + 2 * deltaBits * (count - 1) <= limit else {
                throw fail("polyline \(k) has zones \(left), \(right) of \(cell.paletteCount), \(count) vertices of \(deltaBits)-bit deltas past its end")
            }
            var x: Int, y: Int
            if onEdge {
                let place = reader.take(gridShift + 2)
                guard place < 4 * grid else { throw fail("polyline \(k) starts at \(place) round an edge of \(4 * grid)") }
                (x, y) = ZoneLineHeader.edgePoint(place, grid: grid)
            } else {
                x = reader.take(gridShift)
                y = reader.take(gridShift)
            }
            for _ in 1..<count {
                x += reader.signed(deltaBits)
                y += reader.signed(deltaBits)
                guard (0...grid).contains(x), (0...grid).contains(y) else { throw fail("polyline \(k) leaves the cell") }
            }
        }
        guard (reader.bit + 7) / 8 == end else { throw fail("polylines do not fill its bytes") }
    }
}
