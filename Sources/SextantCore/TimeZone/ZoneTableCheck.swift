/// Checks a table's structure once, at load, so that lookups can index without checks and
/// always end: a refusal names what is wrong and where.
struct ZoneTableCheck {
    let table: ZoneTable

    init(_ table: ZoneTable) { self.table = table }

    func run() throws {
        try checkRuns()
        try checkRefined()
        for slot in table.refinedCells.indices { try checkCell(slot) }
    }

    private func fail(_ what: String) -> ZoneTableError { .badStructure(what) }

    private func checkRuns() throws {
        let offsets = table.rowOffsets
        guard offsets.first == 0, offsets.last.map(Int.init) == table.runStarts.count else {
            throw fail("row offsets do not span the \(table.runStarts.count) runs")
        }
        for row in 0..<table.rows {
            let first = Int(offsets[row]), end = Int(offsets[row + 1])
            guard first < end, table.runStarts[first] == 0 else { throw fail("row \(row) does not start at column 0") }
            for run in first..<end {
                guard run == first || table.runStarts[run] > table.runStarts[run - 1],
                      Int(table.runStarts[run]) < table.columns else { throw fail("row \(row) run \(run - first) out of order") }
                let value = table.runValues[run]
                guard Int(value) < table.zoneNames.count || value >= ZoneTable.absent else {
                    throw fail("row \(row) names zone \(value) of \(table.zoneNames.count)")
                }
            }
        }
    }

    private func checkRefined() throws {
        let cells = table.refinedCells
        for slot in cells.indices {
            guard Int(cells[slot]) < table.rows * table.columns, slot == 0 || cells[slot] > cells[slot - 1] else {
                throw fail("refined cell \(slot) out of order or range")
            }
            guard slot == 0 || (table.refinedFirstNode[slot] > table.refinedFirstNode[slot - 1]
                                && table.refinedFirstSplit[slot] >= table.refinedFirstSplit[slot - 1]) else {
                throw fail("refined cell \(slot)'s nodes overlap the previous cell's")
            }
        }
    }

    /// Every child of a cell's node points forward within the cell (so a walk ends), every
    /// leaf names a zone, every split leaf is the cell's and names zones and edge positions.
    private func checkCell(_ slot: Int) throws {
        let firstNode = Int(table.refinedFirstNode[slot]), firstSplit = Int(table.refinedFirstSplit[slot])
        let last = slot + 1 < table.refinedCells.count
        let endNode = last ? Int(table.refinedFirstNode[slot + 1]) : table.nodes.count / 4
        let endSplit = last ? Int(table.refinedFirstSplit[slot + 1]) : table.splits.count / 4
        guard firstNode < endNode, endNode <= table.nodes.count / 4, endSplit <= table.splits.count / 4 else {
            throw fail("refined cell \(slot) has no nodes")
        }
        for node in firstNode..<endNode {
            for child in table.nodes[node * 4..<node * 4 + 4] {
                switch child {
                case ..<0x8000:
                    guard firstNode + Int(child) > node, firstNode + Int(child) < endNode else {
                        throw fail("cell \(slot) node \(node - firstNode) points outside the cell or back")
                    }
                case ..<0xC000:
                    guard Int(child & 0x3FFF) < table.zoneNames.count else { throw fail("cell \(slot) leaf zone \(child & 0x3FFF)") }
                default:
                    try checkSplit(firstSplit + Int(child & 0x3FFF), end: endSplit, cell: slot)
                }
            }
        }
    }

    private func checkSplit(_ split: Int, end: Int, cell: Int) throws {
        guard split < end else { throw fail("cell \(cell) split \(split) is not the cell's") }
        let values = table.splits[split * 4..<split * 4 + 4]
        guard Int(values[split * 4]) < table.zoneNames.count, Int(values[split * 4 + 1]) < table.zoneNames.count else {
            throw fail("cell \(cell) split \(split) names an unknown zone")
        }
    }
}
