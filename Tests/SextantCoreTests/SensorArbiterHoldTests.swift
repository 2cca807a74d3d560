import SextantCore
import Testing

@Suite("Sensor arbitration: a value held by hand (O4a)")
struct SensorArbiterHoldTests {
    static let ms: Int64 = 1_000_000

    @Test("issue 24.1: held, only the hand is heard however busy the replay is; released, the replay at once")
    func holdThenRelease() {
        var arbiter = SensorArbiter()
        var heard: [Bool] = [arbiter.admits(.replay, at: 0)]
        arbiter.hold()
        heard.append(arbiter.admits(.manual, at: 1 * Self.ms))
        // The replay goes on at 50 Hz for a minute, well past any quiet period: never heard.
        var replayHeard = false
        for tick in 1...3000 where arbiter.admits(.replay, at: Int64(tick) * 20 * Self.ms) { replayHeard = true }
        heard.append(replayHeard)
        heard.append(arbiter.admits(.live, at: 61_000 * Self.ms))
        arbiter.release()
        heard.append(arbiter.admits(.replay, at: 61_001 * Self.ms))  // no quiet period after a release
        heard.append(arbiter.admits(.live, at: 61_002 * Self.ms))  // the replay still outranks the hardware
        #expect(heard == [true, true, false, false, true, false])
    }

    @Test("One arbiter a kind; a release hands the sensor to live hardware at once when nothing is replayed")
    func releaseToLive() {
        var arbiters = SensorArbiters()
        let hinge = SensorKind.hinge.id
        var heard: [Bool] = [arbiters.admits(hinge, .live, at: 0)]
        arbiters.hold(hinge)
        #expect(arbiters.isHeld(hinge) && !arbiters.isHeld(SensorKind.accelerometer.id))
        heard.append(arbiters.admits(hinge, .manual, at: 1))
        heard.append(arbiters.admits(hinge, .live, at: 2))
        heard.append(arbiters.admits(SensorKind.accelerometer.id, .live, at: 2))
        arbiters.release(hinge)
        heard.append(arbiters.admits(hinge, .live, at: 3))
        #expect(heard == [true, true, false, true, true])
    }
}
