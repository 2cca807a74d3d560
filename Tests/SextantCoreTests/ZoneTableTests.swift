import SextantCore
import SextantProtocol
import Testing

/// The table against tzfpy's own answers at real borders (Z1), and its refusal of bad bytes.
@Suite struct ZoneTableTests {
    let table = ZoneFixtures.table

    @Test func everyBorderPointIsTzfpysAnswer() {
        let points = ZoneFixtures.regionPoints
        #expect(points.count > 1000)
        let wrong = points.filter { table.zone(latitude: $0.latitude, longitude: $0.longitude) != $0.zone }
        #expect(wrong.isEmpty, "\(wrong.count) of \(points.count) points differ: \(wrong.prefix(10).map { "\($0.pair) \($0.kind) \($0.zone)" })")
    }

    /// Each pair's two near points lie ~100–500 m either side of a land border (~5 km either
    /// side of the sea's edge), in different zones.
    @Test(arguments: [
        ("elvas-badajoz", "Europe/Lisbon", "Europe/Madrid"),
        ("knox-plymouth", "America/Indiana/Knox", "America/Indiana/Indianapolis"),
        ("vincennes-evansville", "America/Indiana/Vincennes", "America/Chicago"),
        ("winamac-rensselaer", "America/Indiana/Winamac", "America/Chicago"),
        ("page-kayenta", "America/Phoenix", "America/Denver"),
        ("kayenta-secondmesa", "America/Denver", "America/Phoenix"),
        ("bigdiomede-littlediomede", "Asia/Anadyr", "America/Nome"),
        ("kiritimati-sea", "Pacific/Kiritimati", "Etc/GMT+10"),
        ("wakhan-china", "Asia/Kabul", "Asia/Shanghai"),
        ("atlantic-meridian", "Etc/GMT+3", "Etc/GMT+2"),
    ])
    func nearPointsEitherSide(pair: String, a: String, b: String) {
        let nearA = ZoneFixtures.point(pair, "near-a"), nearB = ZoneFixtures.point(pair, "near-b")
        #expect(nearA.zone == a && nearB.zone == b, "the recorded answers changed: regenerate and review")
        #expect(table.zone(latitude: nearA.latitude, longitude: nearA.longitude) == a)
        #expect(table.zone(latitude: nearB.latitude, longitude: nearB.longitude) == b)
        let apart = Geo.distance(lat1: nearA.latitude, lon1: nearA.longitude, lat2: nearB.latitude, lon2: nearB.longitude)
        #expect(apart < (nearA.bound == "sea" ? 11_000 : 1100), "\(pair): \(apart) m apart")
    }

    @Test func antimeridianWrapsAndLatitudeClamps() {
        #expect(table.zone(latitude: -16.8, longitude: 179.99) == "Pacific/Fiji")
        #expect(table.zone(latitude: -16.8, longitude: -179.99) == "Pacific/Fiji")
        #expect(table.zone(latitude: -16.8, longitude: 180) == table.zone(latitude: -16.8, longitude: -180))
        #expect(table.zone(latitude: -16.8, longitude: 179.9 + 360) == "Pacific/Fiji")
        #expect(table.zone(latitude: .nan, longitude: 0) == nil)
        #expect(table.zone(latitude: 0, longitude: .infinity) == nil)
        // The test table covers only its regions: elsewhere it has no answer, not a guess.
        #expect(table.zone(latitude: 48.85, longitude: 2.35) == nil)
    }

    @Test func headerSaysWhereItCameFrom() {
        #expect(table.dataVersion == "2026e")
        #expect(table.cellsPerDegree == 4)
        #expect(table.zoneNames.count == 444)
        #expect(table.zoneNames.contains("America/Indiana/Tell_City"))
    }

    @Test func refusesDamagedBytes() {
        var bytes = ZoneFixtures.tableBytes
        bytes[bytes.count / 2] ^= 0x40
        #expect(throws: ZoneTableError.self) { try ZoneTable(bytes: bytes) }
        if case .checksumMismatch = refusal(bytes) {} else { Issue.record("not a checksum refusal: \(String(describing: refusal(bytes)))") }
        #expect(refusal(Array(ZoneFixtures.tableBytes.prefix(20))) == .truncated(needed: 24, have: 20))
        var magic = ZoneFixtures.tableBytes
        magic[0] = UInt8(ascii: "X")
        #expect(refusal(magic) == .badMagic)
        #expect(refusal([]) == .truncated(needed: 4, have: 0))
    }

    /// Format 1 (the 27 MB layout) is refused by number, not misread.
    @Test func refusesAnOlderFormat() {
        var bytes = ZoneFixtures.tableBytes
        bytes[4] = 1
        #expect(refusal(bytes) == .unsupportedVersion(1))
    }

    /// Formats 2, 3 and 4 are refused by number: format 5's cells hold polylines drawn from
    /// tzfpy's polygons where format 4's held a quadtree of sampled chords, which an older
    /// reader would misread.
    @Test(arguments: [UInt8(2), 3, 4])
    func refusesFormatsTwoToFour(version: UInt8) {
        var bytes = ZoneFixtures.tableBytes
        bytes[4] = version
        Self.resealChecksum(&bytes)
        #expect(refusal(bytes) == .unsupportedVersion(UInt16(version)))
    }

    /// A polyline that is not whole is refused at load, naming its cell and the polyline:
    /// deltas of no bits (the first polyline's width field zeroed), or more vertices than its
    /// cell's bytes hold (its count byte set to 255).
    @Test(arguments: [0, 1])
    func refusesABrokenPolyline(damage: Int) {
        var bytes = ZoneFixtures.tableBytes
        let (slot, cell) = ZoneTableBytes.firstTwoZoneCell(bytes)
        // Two zones: 8 bits of count, 1 of "on the edge", 4 of delta width.
        if damage == 0 {
            bytes[cell.bits + 1] &= ~UInt8(0x1E)
        } else {
            bytes[cell.bits] = 255
        }
        Self.resealChecksum(&bytes)
        expectStructureRefusal(bytes, prefix: "cell \(slot) polyline 0 ")
    }

    /// A cell's polylines must fill its bytes: one that leaves bytes over (a polyline fewer
    /// in its count) or starts as a point inside rather than on the edge (its fields shifted)
    /// is refused, naming the cell.
    @Test func refusesPolylinesThatDoNotFillTheirCell() {
        var bytes = ZoneFixtures.tableBytes
        let (slot, cell) = ZoneTableBytes.cells(bytes).enumerated().first { $0.element.lines >= 2 && $0.element.lines < 63 }!
        bytes[cell.start + 1] -= 4
        Self.resealChecksum(&bytes)
        expectStructureRefusal(bytes, prefix: "cell \(slot) ")
    }

    /// Format 5's cell header: a corner outside the palette, a palette of fewer than two
    /// zones, or no polyline are refused, naming the cell.
    @Test(arguments: [(0, UInt8(0xF2)), (0, UInt8(0x00)), (1, UInt8(0x02))])
    func refusesAnUnknownCellHeader(byte: Int, value: UInt8) {
        var bytes = ZoneFixtures.tableBytes
        let (slot, cell) = ZoneTableBytes.firstTwoZoneCell(bytes)
        bytes[cell.start + byte] = value
        Self.resealChecksum(&bytes)
        expectStructureRefusal(bytes, prefix: "cell \(slot)")
    }

    /// A cell's 16-bit offset from its row's first cell that leaves the cell before it
    /// shorter than a header is refused, naming that cell.
    @Test func refusesCellsOutOfOrder() {
        var bytes = ZoneFixtures.tableBytes
        let parts = ZoneTableBytes.layout(bytes)
        guard let slot = (1..<ZoneTableBytes.u32(bytes, 16)).first(where: { ZoneTableBytes.u16(bytes, parts.offsets + 2 * $0) > 0 }) else {
            Issue.record("no row of the test table holds two cells")
            return
        }
        bytes[parts.offsets + 2 * slot] = 1
        bytes[parts.offsets + 2 * slot + 1] = 0
        Self.resealChecksum(&bytes)
        expectStructureRefusal(bytes, prefix: "refined cell \(slot - 1) ")
    }

    private func expectStructureRefusal(_ bytes: [UInt8], prefix: String) {
        guard case .badStructure(let what) = refusal(bytes) else {
            Issue.record("not refused for its structure: \(String(describing: refusal(bytes)))")
            return
        }
        #expect(what.hasPrefix(prefix), "\(what)")
    }

    /// Stores the body's CRC-32 (zlib's) in the header, so that only the structure is wrong.
    static func resealChecksum(_ bytes: inout [UInt8]) {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes[40...] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        for k in 0..<4 { bytes[28 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
    }

    private func refusal(_ bytes: [UInt8]) -> ZoneTableError? {
        do { _ = try ZoneTable(bytes: bytes); return nil } catch { return error as? ZoneTableError }
    }

    /// Offsets and daylight saving come from the system's tzdata (what the daemon uses).
    @Test func offsetsFromTzdataAtTheBorders() {
        let rules = SystemZoneRules()
        let july = Timestamp.utc("2026-07-01T12:00:00.000Z"), january = Timestamp.utc("2026-01-15T12:00:00.000Z")
        #expect(rules.offset(zone: "America/Phoenix", at: july) == ZoneOffset(seconds: -25200, isDaylightSaving: false))
        #expect(rules.offset(zone: "America/Denver", at: july) == ZoneOffset(seconds: -21600, isDaylightSaving: true))
        #expect(rules.offset(zone: "America/Denver", at: january) == ZoneOffset(seconds: -25200, isDaylightSaving: false))
        #expect(rules.offset(zone: "Asia/Shanghai", at: july)!.seconds - rules.offset(zone: "Asia/Kabul", at: july)!.seconds == 12600)
        #expect(rules.offset(zone: "Pacific/Kiritimati", at: july)?.seconds == 50400)
        #expect(rules.offset(zone: "Pacific/Apia", at: july)?.seconds == 46800)
        #expect(rules.offset(zone: "Pacific/Pago_Pago", at: july)?.seconds == -39600)
        #expect(rules.offset(zone: "Etc/GMT+2", at: july) == NauticalZone.offset(of: "Etc/GMT+2"))
        #expect(NauticalZone.offset(of: "Etc/GMT+2") == ZoneOffset(seconds: -7200, isDaylightSaving: false))
        #expect(NauticalZone.offset(of: "Etc/GMT-14")?.seconds == 50400)
        #expect(NauticalZone.offset(of: "Europe/Paris") == nil)
        // Every zone the table names is known to tzdata.
        let unknown = table.zoneNames.filter { rules.offset(zone: $0, at: july) == nil }
        #expect(unknown.isEmpty, "not in tzdata: \(unknown)")
    }
}
