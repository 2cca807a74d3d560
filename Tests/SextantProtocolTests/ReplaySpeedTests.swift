import SextantProtocol
import Testing

@Suite("Replay speed")
struct ReplaySpeedTests {
    @Test("the command line's speed: max or a finite positive number, printed back as given")
    func parsing() {
        #expect(ReplaySpeed(parsing: "max") == .max)
        #expect(ReplaySpeed(parsing: "2") == .factor(2))
        #expect(ReplaySpeed(parsing: "0.5") == .factor(0.5))
        #expect(ReplaySpeed(parsing: "5e6") == nil, "issue 24.5: the daemon's range, refused on the command line")
        #expect(ReplaySpeed(parsing: "0.001") == .factor(0.001))
        for text in ["2", "0.5", "max", "1000000"] { #expect(ReplaySpeed(parsing: text)?.description == text) }
    }

    @Test("bad speeds are refused: empty, words, zero, negative, infinite, NaN, MAX")
    func badInputs() {
        for text in ["", " ", "fast", "0", "-1", "-0", "inf", "infinity", "nan", "MAX", "max ", "1x", "1,5"] {
            #expect(ReplaySpeed(parsing: text) == nil, "\(text)")
        }
        #expect(ReplaySpeed(factor: 0) == nil)
        #expect(ReplaySpeed(factor: 2e6) == nil)
        #expect(ReplaySpeed(factor: .nan) == nil)
        #expect(ReplaySpeed(factor: 0.001) == .factor(0.001))
    }

    @Test("replay.start's speed: absent or null is 1, \"max\", or a supported number; anything else is -32602")
    func json() throws {
        #expect(try ReplaySpeed(json: nil) == .factor(1))
        #expect(try ReplaySpeed(json: .null) == .factor(1))
        #expect(try ReplaySpeed(json: "max") == .max)
        #expect(try ReplaySpeed(json: 10) == .factor(10))
        for bad: JSONValue in ["fast", "MAX", 0, -2, 2e6, true, [:], []] {
            #expect(throws: RPCError.invalidParams("\"speed\" must be \"max\" or a number from 0.001 to 1000000.0"), "\(bad)") {
                try ReplaySpeed(json: bad)
            }
        }
        #expect(ReplaySpeed.max.json == "max")
        #expect(ReplaySpeed.factor(2).json == 2.0)
    }
}
