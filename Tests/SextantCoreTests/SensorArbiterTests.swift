import SextantCore
import Testing

@Suite("Sensor arbitration: manual over replay over live")
struct SensorArbiterTests {
    static let ms: Int64 = 1_000_000

    /// Feeds readings in order and returns, for each, whether it was heard.
    static func heard(_ readings: [(SensorArbiter.Rank, Int64)]) -> [Bool] {
        var arbiter = SensorArbiter()
        return readings.map { arbiter.admits($0.0, at: $0.1) }
    }

    @Test("A higher source silences a lower one while it speaks; the lower is heard after 1 s of quiet, not before")
    func higherSourceWins() {
        let result = Self.heard([
            (.live, 0), (.replay, 10 * Self.ms), (.live, 20 * Self.ms), (.replay, 30 * Self.ms),
            (.live, 1030 * Self.ms),  // exactly 1 s after the replay: still the replay's
            (.live, 1030 * Self.ms + 1),  // just over: live again
            (.replay, 2000 * Self.ms),  // a replay takes it back at once
        ])
        #expect(result == [true, true, false, true, false, true, true])
    }

    @Test("Manual outranks both; sources of the same rank are always heard")
    func manualOutranksAll() {
        let result = Self.heard([
            (.manual, 0), (.replay, 500 * Self.ms), (.live, 500 * Self.ms), (.manual, 900 * Self.ms), (.manual, 901 * Self.ms),
            (.live, 1902 * Self.ms), (.live, 1903 * Self.ms),
        ])
        #expect(result == [true, false, false, true, true, true, true])
    }
}
