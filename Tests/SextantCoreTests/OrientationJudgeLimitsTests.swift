import SextantCore
import SextantProtocol
import Testing

/// Times and readings from outside at the ends of their ranges: the judge goes on, it never
/// traps (found by NoTrapPropertyTests).
@Suite("Orientation judge at the ends of time and of readings")
struct OrientationJudgeLimitsTests {
    let upright = Acceleration(x: 0, y: Acceleration.standardGravity, z: 0)

    /// Portrait readings every 20 ms for `seconds` from `start`; the last change seen.
    func hold(_ judge: inout OrientationJudge, from start: Timestamp, seconds: Int) -> DeviceOrientationChange? {
        var change: DeviceOrientationChange?
        for k in 0...(seconds * 50) {
            change = judge.judge(upright, at: start.adding(nanoseconds: Int64(k) * 20_000_000)) ?? change
        }
        return change
    }

    @Test("O5: a jump from 1677 to 2262 (a gap over Int64) starts afresh, then judges as usual")
    func jumpAcrossAllOfTime() {
        var judge = OrientationJudge()
        _ = judge.judge(upright, at: .earliest)
        _ = judge.judge(upright, at: Timestamp.latest.adding(nanoseconds: -5_000_000_000))
        let change = hold(&judge, from: Timestamp.latest.adding(nanoseconds: -4_000_000_000), seconds: 2)
        #expect(change?.orientation == .portrait)
    }

    @Test("O2: samples in the last second of time: hold-offs that would end after it never pass, nothing traps")
    func lastSecond() {
        var judge = OrientationJudge()
        let change = hold(&judge, from: Timestamp.latest.adding(nanoseconds: -1_000_000_000), seconds: 2)
        // The clamped times stop at the last instant; whatever is decided, the judge is alive.
        #expect(change == nil || change?.orientation == .portrait)
    }

    @Test("O1: readings of ±1e308 or NaN are ignored; the judge keeps its decision", arguments: [
        Acceleration(x: 1e308, y: 0, z: 0), Acceleration(x: 0, y: -1e308, z: 1e308), Acceleration(x: .nan, y: 0, z: 0),
        Acceleration(x: 0, y: 2e6, z: 0),
    ])
    func hugeReadings(reading: Acceleration) {
        var judge = OrientationJudge()
        let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
        #expect(hold(&judge, from: start, seconds: 2)?.orientation == .portrait)
        for k in 1...100 { #expect(judge.judge(reading, at: start.adding(nanoseconds: 2_000_000_000 + Int64(k) * 20_000_000)) == nil) }
        #expect(judge.orientation == .portrait)
    }
}
