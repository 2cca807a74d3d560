import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl gyro X Y Z|release` through the real daemon and the real sextantctl (issue 40.1).
@Suite("sextantctl gyro", .serialized)
struct GyroByHandTests {
    @Test("issue 40.1, O4a: gyro holds a rate beside a held acceleration; status says so; bad values refused naming what; release lets go")
    func gyroByHand() throws {
        let daemon = try DaemonHarness(arguments: ["--no-gpsd"])
        #expect(try daemon.ctl(["rotate", "faceUp"]).status == 0)
        let set = try daemon.ctl(["gyro", "0", "0", "1.5708"])
        #expect(set.status == 0 && set.stdout.contains("Holding rotation rate (0, 0, 1.5708) rad/s"), "\(set.stdout)\(set.stderr)")
        // Its topic is its own: holding a rate does not let go of the held acceleration.
        try daemon.waitForStatus("both held") { $0["held"] == ["accel", "gyro"] }
        let tooFast = try daemon.ctl(["gyro", "0", "0", "500"])
        #expect(tooFast.status != 0 && tooFast.stderr.contains("rotationRate: gyro: z must be a number within ±100 rad/s"), "\(tooFast.stderr)")
        let two = try daemon.ctl(["gyro", "1", "2"])
        #expect(two.status != 0 && two.stderr.contains("X Y Z"), "\(two.stderr)")
        let released = try daemon.ctl(["gyro", "release"])
        #expect(released.status == 0 && released.stdout.contains("Gyroscope released"), "\(released.stdout)")
        try daemon.waitForStatus("the accelerometer alone held") { $0["held"] == ["accel"] }
    }
}
