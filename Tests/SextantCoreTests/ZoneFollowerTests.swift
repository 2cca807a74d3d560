import SextantCore
import SextantProtocol
import Testing

/// A walk's fixes, one every `step` seconds of fix time.
struct ZoneWalk {
    var start = Timestamp.utc("2026-07-01T10:00:00.000Z")
    var step = 1.0

    func fix(_ p: ZoneFixtures.Point, at index: Int, accuracy: Double = 5) -> LocationFix {
        fix(latitude: p.latitude, longitude: p.longitude, seconds: Double(index) * step, accuracy: accuracy)
    }

    func fix(latitude: Double, longitude: Double, seconds: Double, accuracy: Double = 5) -> LocationFix {
        LocationFix(latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy,
                    time: start.adding(nanoseconds: Int64(seconds * 1e9)))
    }
}

/// The engine that decides the device's zone: Z2 (none before the first fix), Z3
/// (hysteresis), Z5 (offset at the fix's time), Z6 (time going back).
@Suite struct ZoneFollowerTests {
    let lisbonSide = ZoneFixtures.point("elvas-badajoz", "near-a")
    let madridSide = ZoneFixtures.point("elvas-badajoz", "near-b")

    func follower() -> ZoneFollower { ZoneFollower(table: ZoneFixtures.table, rules: SystemZoneRules()) }

    @Test func noZoneBeforeTheFirstFixThenAtOnce() {
        var engine = follower()
        #expect(engine.zone == nil)
        let decision = engine.observe(ZoneWalk().fix(lisbonSide, at: 0))
        #expect(decision?.reason == .first)
        #expect(decision?.zone == "Europe/Lisbon" && decision?.previousZone == nil)
        #expect(decision?.offset == ZoneOffset(seconds: 3600, isDaylightSaving: true))
    }

    /// A walk that follows the border, crossing it every 10 s for ten minutes, keeps its zone.
    @Test func zigZagAlongTheBorderDoesNotFlap() {
        var engine = follower()
        let walk = ZoneWalk(step: 10)
        var decisions: [ZoneDecision] = []
        for i in 0...60 {
            if let d = engine.observe(walk.fix(i % 2 == 0 ? lisbonSide : madridSide, at: i)) { decisions.append(d) }
        }
        #expect(decisions.map(\.zone) == ["Europe/Lisbon"])
        // Then on the Spanish side from fix 61: Madrid at fix 64, 30 s after the first there.
        for i in 61...64 {
            if let d = engine.observe(walk.fix(madridSide, at: i)) { decisions.append(d) }
        }
        #expect(decisions.map(\.zone) == ["Europe/Lisbon", "Europe/Madrid"])
        #expect(decisions.last?.time == walk.fix(madridSide, at: 64).time)
        #expect(decisions.last?.offset == ZoneOffset(seconds: 7200, isDaylightSaving: true))
    }

    /// Both numbers must hold: 3 fixes AND 30 s of fix time, whatever the pace.
    @Test(arguments: [(0.5, 61), (10.0, 4), (60.0, 3)])
    func takesTheNewZoneAfterFixesAndSeconds(step: Double, fixesInSpain: Int) {
        var engine = follower()
        let walk = ZoneWalk(step: step)
        _ = engine.observe(walk.fix(lisbonSide, at: 0))
        var taken: Int?
        for i in 1...100 where taken == nil {
            if engine.observe(walk.fix(madridSide, at: i))?.zone == "Europe/Madrid" { taken = i }
        }
        #expect(taken == fixesInSpain)
    }

    /// A replay that walks from Elvas to Badajoz: two decisions, the second 30 s after the crossing.
    @Test func replayAcrossSpainPortugal() {
        let a = ZoneFixtures.point("elvas-badajoz", "end-a"), b = ZoneFixtures.point("elvas-badajoz", "end-b")
        var engine = follower()
        let walk = ZoneWalk(step: 1)
        let seconds = 12_000
        var decisions: [(Int, ZoneDecision)] = []
        var firstInSpain: Int?
        for i in 0...seconds {
            let f = Double(i) / Double(seconds)
            let fix = walk.fix(latitude: a.latitude + (b.latitude - a.latitude) * f,
                               longitude: a.longitude + (b.longitude - a.longitude) * f, seconds: Double(i))
            if firstInSpain == nil, ZoneFixtures.table.zone(latitude: fix.latitude, longitude: fix.longitude) == "Europe/Madrid" { firstInSpain = i }
            if let d = engine.observe(fix) { decisions.append((i, d)) }
        }
        #expect(decisions.map(\.1.zone) == ["Europe/Lisbon", "Europe/Madrid"])
        #expect(decisions.last?.0 == firstInSpain.map { $0 + 30 })
        #expect(decisions.last?.1.previousZone == "Europe/Lisbon")
    }

    /// China to Afghanistan: a 3.5 h jump; at sea, the nautical zone.
    @Test(arguments: [("wakhan-china", 12600), ("atlantic-meridian", 3600), ("kiritimati-sea", -86400)])
    func offsetJumpAcrossTheBorder(pair: String, jump: Int) {
        var engine = follower()
        let walk = ZoneWalk(step: 10)
        let first = engine.observe(walk.fix(ZoneFixtures.point(pair, "near-a"), at: 0))
        var last: ZoneDecision?
        for i in 1...4 { last = engine.observe(walk.fix(ZoneFixtures.point(pair, "near-b"), at: i)) ?? last }
        #expect(last?.reason == .zoneChanged)
        #expect((last?.offset?.seconds ?? 0) - (first?.offset?.seconds ?? 0) == jump)
    }

    /// Arizona keeps standard time in summer; the Navajo Nation around it does not.
    @Test func arizonaAndTheNavajoNationInSummer() {
        var engine = follower()
        let walk = ZoneWalk(step: 10)
        let phoenix = engine.observe(walk.fix(ZoneFixtures.point("page-kayenta", "near-a"), at: 0))
        var denver: ZoneDecision?
        for i in 1...4 { denver = engine.observe(walk.fix(ZoneFixtures.point("page-kayenta", "near-b"), at: i)) ?? denver }
        #expect(phoenix?.offset == ZoneOffset(seconds: -25200, isDaylightSaving: false))
        #expect(denver?.zone == "America/Denver")
        #expect(denver?.offset == ZoneOffset(seconds: -21600, isDaylightSaving: true))
    }

    /// Sitting in Madrid through the spring change: the offset changes at the fix after it.
    @Test func daylightSavingStartsWhileStill() {
        var engine = follower()
        let walk = ZoneWalk(start: Timestamp.utc("2026-03-29T00:58:00.000Z"), step: 60)
        var decisions: [ZoneDecision] = []
        for i in 0..<4 { if let d = engine.observe(walk.fix(madridSide, at: i)) { decisions.append(d) } }
        #expect(decisions.map(\.reason) == [.first, .offsetChanged])
        #expect(decisions.last?.offset == ZoneOffset(seconds: 7200, isDaylightSaving: true))
        #expect(decisions.last?.time == Timestamp.utc("2026-03-29T01:00:00.000Z"))
    }

    /// A fix too unsure decides nothing; time going back (a new replay) starts the count again.
    @Test func unsureFixesAndTimeGoingBack() {
        var engine = follower()
        let walk = ZoneWalk(step: 10)
        _ = engine.observe(walk.fix(lisbonSide, at: 0, accuracy: 800))
        #expect(engine.zone == nil)
        _ = engine.observe(walk.fix(lisbonSide, at: 1))
        _ = engine.observe(walk.fix(madridSide, at: 2))
        _ = engine.observe(walk.fix(madridSide, at: 3))
        // Back in time: the two fixes in Spain no longer count toward the 30 s.
        #expect(engine.observe(walk.fix(madridSide, at: 0)) == nil)
        #expect(engine.observe(walk.fix(madridSide, at: 1)) == nil)
        #expect(engine.observe(walk.fix(madridSide, at: 2)) == nil)
        #expect(engine.observe(walk.fix(madridSide, at: 3))?.zone == "Europe/Madrid")
        #expect(engine.zone == "Europe/Madrid")
    }
}
