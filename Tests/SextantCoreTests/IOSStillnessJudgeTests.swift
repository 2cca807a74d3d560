import Foundation
import SextantCore
import SextantProtocol
import Testing

/// I14's judge alone: 30 s within the fix's accuracy is stationary, a fix beyond it moves.
@Suite("iOS stillness judge")
struct IOSStillnessJudgeTests {
    static func fix(east metres: Double, accuracy: Double = 5) -> LocationFix {
        LocationFix(latitude: 48, longitude: 2 + metres / 111_320 / cos(48 * .pi / 180), horizontalAccuracy: accuracy, time: Timestamp(seconds: 0))
    }

    @Test("I14: 29.9 s still is not stationary, 30 s is; a move beyond the larger accuracy ends it and anchors anew")
    func testI14_boundaries() {
        var judge = IOSStillnessJudge()
        func feed(_ metres: Double, _ seconds: Double, accuracy: Double = 5) -> (changed: Bool, stationary: Bool) {
            let changed = judge.fixArrived(Self.fix(east: metres, accuracy: accuracy), at: Int64(seconds * 1e9))
            return (changed, judge.stationary)
        }
        #expect(feed(0, 0) == (false, false))
        #expect(feed(4.9, 29.9) == (false, false))
        #expect(feed(4.9, 30) == (true, true))
        #expect(feed(14, 31, accuracy: 15) == (false, true), "within the fix's own 15 m")
        #expect(feed(30, 32) == (true, false), "beyond 5 m of the anchor: a move")
        #expect(feed(30, 61) == (false, false), "the new anchor: 29 s")
        #expect(feed(30, 62) == (true, true))
    }
}
