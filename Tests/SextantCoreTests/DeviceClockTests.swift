import SextantCore
import SextantProtocol
import Testing

/// The device's clock as a value (RULES C1–C5, C8): the host's time in, the device's out.
@Suite("DeviceClock")
struct DeviceClockTests {
    static let host = EngineTime(monotonic: 5_000_000_000, wall: Timestamp(nanoseconds: 1_772_352_000_000_000_000))  // 2026-03-01T08:00:00Z
    static let day: Int64 = 86_400_000_000_000

    @Test("C1 C3: advancing moves both clocks by as much")
    func testC3_advanceMovesBoth() throws {
        var clock = DeviceClock()
        try clock.advance(by: 61_000_000_000, host: Self.host)
        let now = clock.time(host: Self.host)
        #expect(now.monotonic == 66_000_000_000)
        #expect(now.wall.rfc3339 == "2026-03-01T08:01:01.000Z")
    }

    @Test("C2 C4: setting the wall earlier moves only the wall; later moves the monotonic clock by the difference")
    func testC4_setWall() throws {
        var clock = DeviceClock()
        try clock.set(wall: Self.host.wall.adding(nanoseconds: -Self.day), host: Self.host)
        #expect(clock.time(host: Self.host).monotonic == Self.host.monotonic)
        #expect(clock.wallOffset == -Self.day)
        try clock.set(wall: Self.host.wall.adding(nanoseconds: Self.day), host: Self.host)
        #expect(clock.monotonicOffset == 2 * Self.day, "from the device's wall, a day behind, two days forward")
        clock.resetWall()
        #expect(clock.wallOffset == 0 && clock.monotonicOffset == 2 * Self.day, "C5")
    }

    @Test("C8: a move out of range is refused and leaves the clock as it was")
    func testC8_refusals() throws {
        var clock = DeviceClock()
        #expect(throws: DeviceClockRefusal.backwards) { try clock.advance(by: -1, host: Self.host) }
        #expect(throws: DeviceClockRefusal.wallOutOfRange) { try clock.set(wall: Timestamp(nanoseconds: -1), host: Self.host) }
        #expect(throws: DeviceClockRefusal.wallOutOfRange) { try clock.advance(by: 200 * 365 * Self.day, host: Self.host) }
        // Back and forth across the whole range: the monotonic lead is bounded too.
        try clock.set(wall: DeviceClock.latestWall, host: Self.host)
        try clock.set(wall: DeviceClock.earliestWall, host: Self.host)
        #expect(throws: DeviceClockRefusal.monotonicOutOfRange) { try clock.set(wall: DeviceClock.latestWall, host: Self.host) }
        #expect(clock.time(host: Self.host).wall == DeviceClock.earliestWall)
    }

    @Test("durations as sextantctl reads them")
    func durations() {
        #expect(TimeAdvance.seconds(parsing: "90d") == 7_776_000)
        #expect(TimeAdvance.seconds(parsing: "61s") == 61)
        #expect(TimeAdvance.seconds(parsing: "15m") == 900)
        #expect(TimeAdvance.seconds(parsing: "2h") == 7200)
        #expect(TimeAdvance.seconds(parsing: "1.5") == 1.5)
        for bad in ["", "d", "-5s", "5w", "1e3", "٣s", "inf"] { #expect(TimeAdvance.seconds(parsing: bad) == nil, "\(bad)") }
    }
}
