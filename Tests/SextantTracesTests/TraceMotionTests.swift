import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// The movement figures of `trace info`, on traces made by hand.
@Suite("Trace motion figures")
struct TraceMotionTests {
    static let start = Timestamp(rfc3339: "2026-03-01T08:00:00Z")!
    static let milliDegree = 6_371_008.8 * 0.001 * .pi / 180

    func fix(_ lon: Double, _ t: Double, speed: Double? = nil) -> TraceSample {
        let offset = Int64(t * 1e9)
        return TraceSample(offset: offset, value: .location(LocationFix(latitude: 0, longitude: lon, speed: speed, time: Self.start.adding(nanoseconds: offset))))
    }

    @Test("distance along the fixes, speeds (own, else derived), gaps over 1 s, rates per kind")
    func figures() {
        var samples = [fix(0, 0), fix(0.001, 10), fix(0.002, 12, speed: 7), fix(0.004, 16)]
        for k in 0..<11 { samples.append(TraceSample(offset: Int64(k) * 100_000_000, value: .acceleration(Acceleration(x: 0, y: 9.8, z: 0)))) }
        samples.sort { $0.offset < $1.offset }
        let motion = TraceMotion(Trace(start: Self.start, samples: samples))
        #expect(abs(motion.distance - 4 * Self.milliDegree) < 1e-6)
        // Speeds: none for the first fix (no leg arrives, none of its own), 11.1195 m/s, 7 (its own), 55.5976 m/s.
        let speed = try! #require(motion.speed)
        #expect(speed.minimum == 7)
        #expect(abs(speed.median - Self.milliDegree / 10) < 1e-9)
        #expect(abs(speed.maximum - 2 * Self.milliDegree / 4) < 1e-9)
        // Gaps: 1.0 → 10 s (9 s), 10 → 12 s (2 s), 12 → 16 s (4 s); 0.1 s steps are not.
        #expect(motion.gapCount == 3)
        #expect(motion.longestGap == TraceMotion.Gap(after: 1.0, length: 9))
        #expect(motion.gaps.map(\.length) == [9, 2, 4])
        #expect(abs(motion.rates["accel"]! - 10) < 1e-9)
        #expect(abs(motion.rates["location"]! - 3.0 / 16) < 1e-9)
        #expect(motion.rates["gps"] == nil)
    }

    @Test("a trace with no locations has no distance to speak of and no speeds")
    func noLocations() {
        let motion = TraceMotion(Trace(start: Self.start, samples: [TraceSample(offset: 0, value: .gps(.lost))]))
        #expect(motion.distance == 0 && motion.speed == nil && motion.gapCount == 0 && motion.rates.isEmpty)
    }
}

@Suite("Atomic file")
struct AtomicFileTests {
    @Test("a write that cannot happen leaves the old file as it was and no temporary file behind")
    func failureLeavesTarget() throws {
        let scratch = try TemporaryDirectory("atomic")
        let directory = scratch.path
        let target = directory + "/out.gpx"
        try AtomicFile.write("first\n", to: target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "first\n")
        // A directory in the way of the rename: the write fails at its last step.
        let blocked = directory + "/sub"
        try FileManager.default.createDirectory(atPath: blocked + "/x", withIntermediateDirectories: true)
        #expect(throws: TraceExportError.self) { try AtomicFile.write("second\n", to: blocked) }
        try AtomicFile.write("second\n", to: target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "second\n")
        #expect(throws: TraceExportError.self) { try AtomicFile.write("x", to: directory + "/missing/out.gpx") }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == ["out.gpx", "sub"], "no temporary file left: \(left)")
    }
}
