import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// The world table the .deb ships (Traces/tz/zones.sxtz) against tzfpy's own answers at the
/// issue's borders (Spain/Portugal, Indiana's counties, Arizona and the Navajo Nation, the
/// date line, China/Afghanistan, ships at sea) and over the globe; and its size.
@Suite struct ZoneWorldTableTests {
    let world = ZoneFixtures.world

    /// Compact enough to commit and ship (docs/timezone.md, "World table").
    @Test func isCompact() {
        #expect(ZoneFixtures.worldBytes.count < 4_500_000, "\(ZoneFixtures.worldBytes.count) bytes")
        #expect(world.gridShift == 11 && world.landToleranceMetres <= 50 && world.seaToleranceMetres <= 500)
    }

    /// Format 5 draws its borders from tzfpy's own polygons (simplified within 50 m, on a
    /// 13.6 m grid, cut at the cells' edges) rather than from sampled quadtrees: the world
    /// table under 1.75 MB (1,701,248 bytes) from format 4's 2,243,679.
    @Test func polygonBordersMakeItSmaller() {
        #expect(ZoneFixtures.worldBytes.count < 1_750_000, "\(ZoneFixtures.worldBytes.count) bytes")
        #expect(ZoneTableBytes.cells(ZoneFixtures.worldBytes).count > 40_000)
    }

    @Test func everyPointIsTzfpysAnswer() {
        let points = ZoneFixtures.points
        #expect(points.count > 1800)
        let wrong = points.filter { world.zone(latitude: $0.latitude, longitude: $0.longitude) != $0.zone }
        #expect(wrong.isEmpty, "\(wrong.count) of \(points.count) points differ: \(wrong.prefix(10).map { "\($0.pair) \($0.kind) \($0.zone) \(world.zone(latitude: $0.latitude, longitude: $0.longitude) ?? "nil")" })")
    }

    /// The test table's answers are the world table's in every region it covers.
    @Test func agreesWithTheTestTableInItsRegions() {
        var random = SplitMix64(seed: 41), compared = 0, differ: [String] = []
        let table = ZoneFixtures.table
        for _ in 0..<20_000 {
            let lat = random.uniform() * 180 - 90, lon = random.uniform() * 360 - 180
            guard let zone = table.zone(latitude: lat, longitude: lon) else { continue }
            compared += 1
            if world.zone(latitude: lat, longitude: lon) != zone { differ.append("\(lat),\(lon) \(zone)") }
        }
        for p in ZoneFixtures.regionPoints where table.zone(latitude: p.latitude, longitude: p.longitude) != world.zone(latitude: p.latitude, longitude: p.longitude) {
            differ.append("\(p.pair) \(p.kind)")
        }
        #expect(differ.isEmpty, "\(differ.count) differ: \(differ.prefix(5))")
        #expect(compared > 0)
    }

    /// At sea the table holds one value and the zone is the longitude's strip (Etc/GMT±N),
    /// both sides of the date line.
    @Test(arguments: [
        (0.0, -150.0, "Etc/GMT+10"), (0.0, 179.9, "Etc/GMT-12"), (0.0, -179.9, "Etc/GMT+12"),
        (-40.0, -7.4, "Etc/GMT"), (-40.0, -7.6, "Etc/GMT+1"), (-40.0, 7.6, "Etc/GMT-1"),
        (30.0, -37.6, "Etc/GMT+3"), (30.0, -37.4, "Etc/GMT+2"), (10.0, 180.0, "Etc/GMT+12"),
    ])
    func seaIsTheLongitudesStrip(latitude: Double, longitude: Double, zone: String) {
        #expect(world.zone(latitude: latitude, longitude: longitude) == zone)
    }

    /// Everywhere answered: the world table has no absent cell.
    @Test func answersEverywhere() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<100_000 {
            let lat = random.uniform() * 180 - 90, lon = random.uniform() * 360 - 180
            #expect(world.zoneIndex(latitude: lat, longitude: lon) != nil, "\(lat), \(lon)")
        }
        #expect(world.zone(latitude: 90, longitude: 0) != nil && world.zone(latitude: -90, longitude: 0) != nil)
    }
}
