/// Finds parts of a table's bytes by its format (docs/timezone.md, format 3), for tests that
/// damage one part and expect the load to refuse it.
enum ZoneTableBytes {
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }

    /// Where each refined cell starts, in order.
    static func cells(_ bytes: [UInt8]) -> [Int] {
        var at = 40
        for _ in 0..<u16(bytes, 10) { at += 1 + Int(bytes[at]) }
        let offsets = at + 4 * 721 + 4 * u32(bytes, 12) + 4 * 721, blob = offsets + 4 * (u32(bytes, 16) + 1)
        return (0..<u32(bytes, 16)).map { blob + u32(bytes, offsets + 4 * $0) }
    }

    /// The first cell holding a polyline leaf, and where its first polyline starts.
    static func firstPolyline(_ bytes: [UInt8]) -> (slot: Int, line: Int)? {
        for (slot, cell) in cells(bytes).enumerated() {
            let palette = Int(bytes[cell]), nodes = u16(bytes, cell + 1), lines = u16(bytes, cell + 3)
            let bits = palette <= 2 ? 2 : 4, width = palette <= 2 ? 3 : 4
            let records = cell + 5 + 2 * palette + (4 * nodes * bits + 7) / 8 + 4 * ((4 * nodes + 31) / 32)
            let polylines = (0..<lines).filter { k in
                let word = Int(bytes[records + width * k]) | u16(bytes, records + width * k + 1) << 8
                return word & 0xFFF == word >> 12
            }
            if !polylines.isEmpty { return (slot, records + width * lines) }
        }
        return nil
    }
}
