import Foundation
import SextantCore
import SextantProtocol
import Testing

/// The Android profile's approximate location (docs/platforms.md AN20–AN24), each number
/// checked so that a different one fails: expectations are computed from AOSP's definitions
/// by hand, statistics over many seeds with stated tolerances.
@Suite("Android coarse fudger (AN20–AN24)")
struct AndroidCoarseFudgerTests {
    static let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)

    static func at(_ seconds: Double) -> Timestamp { Timestamp(nanoseconds: start.nanoseconds + Int64(seconds * 1e9)) }

    static func fix(_ lat: Double, _ lon: Double, hAcc: Double = 5, at seconds: Double = 0) -> LocationFix {
        LocationFix(
            latitude: lat, longitude: lon, altitude: 35, horizontalAccuracy: hAcc, verticalAccuracy: 3,
            speed: 1.4, course: 90, time: at(seconds), simulated: true)
    }

    @Test("AN20: the grid is 2000 m by default, never finer than 200 m; a coarse fix claims max(2000 m, its own)")
    func an20AccuracyDefaultAndFloor() {
        #expect(AndroidCoarseFudger(seed: 1, now: Self.start).accuracy == 2000)
        #expect(AndroidCoarseFudger(accuracy: 50, seed: 1, now: Self.start).accuracy == 200)
        var fudger = AndroidCoarseFudger(seed: 1, now: Self.start)
        #expect(fudger.coarsen(Self.fix(48.85837, 2.29448, hAcc: 5), now: Self.start).horizontalAccuracy == 2000)
        #expect(fudger.coarsen(Self.fix(48.85837, 2.29448, hAcc: 3500), now: Self.start).horizontalAccuracy == 3500)
    }

    @Test("AN21/AN22: the coarse point is the offset point rounded to steps of 2000/111000° north and that ÷cos(lat) east")
    func an21GridByHand() {
        for seed in UInt64(1)...50 {
            var fudger = AndroidCoarseFudger(seed: seed, now: Self.start)
            let lat = 48.85837 + Double(seed) * 0.013, lon = 2.29448 - Double(seed) * 0.021
            // By hand: the longitude offset is turned to degrees at the true latitude, the
            // latitude's step is 2000/111000°, the longitude's step uses the moved latitude.
            let movedLon = lon + fudger.longitudeOffset / 111_000 / cos(lat * .pi / 180)
            let movedLat = lat + fudger.latitudeOffset / 111_000
            let latStep = 2000.0 / 111_000
            let lonStep = 2000.0 / 111_000 / cos(movedLat * .pi / 180)
            let coarse = fudger.coarsen(Self.fix(lat, lon), now: Self.start)
            #expect(abs(coarse.latitude - (movedLat / latStep).rounded() * latStep) < 1e-12)
            #expect(abs(coarse.longitude - (movedLon / lonStep).rounded() * lonStep) < 1e-12)
        }
    }

    @Test("AN21: walking 12 km north, the coarse latitude moves in steps of exactly 2000/111000°")
    func an21CellSize() {
        var fudger = AndroidCoarseFudger(seed: 7, now: Self.start)
        var latitudes: [Double] = []
        for step in 0..<1200 {
            let coarse = fudger.coarsen(Self.fix(45 + Double(step) * 10 / 111_000, 7), now: Self.start)
            if latitudes.last != coarse.latitude { latitudes.append(coarse.latitude) }
        }
        #expect(latitudes.count >= 6 && latitudes.count <= 7)
        for (a, b) in zip(latitudes, latitudes.dropFirst()) { #expect(abs((b - a) - 2000.0 / 111_000) < 1e-9) }
    }

    @Test("AN22: the offsets are Gaussian with σ = accuracy/4 (500 m at 2000 m; 4000 seeds, within 5 %)")
    func an22OffsetSigma() {
        let seeds = 4000
        var north: [Double] = [], east: [Double] = []
        for seed in 0..<seeds {
            let fudger = AndroidCoarseFudger(seed: UInt64(seed) &* 0x9E37_79B9 &+ 11, now: Self.start)
            north.append(fudger.latitudeOffset)
            east.append(fudger.longitudeOffset)
        }
        for sample in [north, east] {
            let mean = sample.reduce(0, +) / Double(seeds)
            let sigma = (sample.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(seeds - 1)).squareRoot()
            // The standard error of σ is σ/√(2n) ≈ 5.6 m: 25 m is over four of them, and
            // acc/3 (667 m) or acc/5 (400 m) are far outside.
            #expect(abs(sigma - 500) < 25, "σ = \(sigma)")
            #expect(abs(mean) < 3 * 500 / Double(seeds).squareRoot(), "mean = \(mean)")
        }
    }

    @Test("AN23: the offsets stay for 1 h and move at the first coarsening at or after it, then an hour after that")
    func an23DriftInterval() {
        var fudger = AndroidCoarseFudger(seed: 3, now: Self.start)
        let first = (fudger.latitudeOffset, fudger.longitudeOffset)
        _ = fudger.coarsen(Self.fix(48.8, 2.3, at: 3599.999), now: Self.at(3599.999))
        #expect(fudger.latitudeOffset == first.0 && fudger.longitudeOffset == first.1)
        _ = fudger.coarsen(Self.fix(48.8, 2.3, at: 3600), now: Self.at(3600))
        #expect(fudger.latitudeOffset != first.0 && fudger.longitudeOffset != first.1)
        #expect(fudger.nextUpdate == Self.at(7200))
        let second = fudger.latitudeOffset
        // Five hours of silence: one step, and the next an hour after this coarsening.
        _ = fudger.coarsen(Self.fix(48.8, 2.3, at: 5 * 3600), now: Self.at(5 * 3600))
        #expect(fudger.latitudeOffset != second)
        #expect(fudger.nextUpdate == Self.at(6 * 3600))
    }

    @Test("AN23: each step is √(1−0.03²)·old + 0.03·fresh: the fresh part has σ = 0.03 × 500 m (within 8 %)")
    func an23DriftFraction() {
        let oldWeight = (1 - 0.03 * 0.03).squareRoot()
        var residuals: [Double] = []
        for seed in 0..<3000 {
            var fudger = AndroidCoarseFudger(seed: UInt64(seed) &* 0x5851_F42D &+ 3, now: Self.start)
            let old = fudger.latitudeOffset
            _ = fudger.coarsen(Self.fix(10, 10, at: 4 * 3600), now: Self.at(4 * 3600))
            residuals.append(fudger.latitudeOffset - oldWeight * old)
        }
        let sigma = (residuals.map { $0 * $0 }.reduce(0, +) / Double(residuals.count)).squareRoot()
        // 15 m expected; 2 % (10 m) or 5 % (25 m), or four steps for four hours (30 m), fail.
        #expect(abs(sigma - 15) < 1.2, "σ of the fresh part = \(sigma)")
    }

    @Test("AN24: a coarse fix has no altitude, vertical accuracy, speed or bearing; its time and mock flag stay")
    func an24StripsDetail() {
        var fudger = AndroidCoarseFudger(seed: 5, now: Self.start)
        let coarse = fudger.coarsen(Self.fix(-33.8568, 151.2153, at: 12), now: Self.at(12))
        #expect(coarse.altitude == nil && coarse.verticalAccuracy == nil && coarse.speed == nil && coarse.course == nil)
        #expect(coarse.time == Self.at(12) && coarse.simulated)
    }

    @Test("AN21: the same seed gives the same coarse fixes; latitude stays a metre short of the pole")
    func an21DeterministicAndPoleSafe() {
        var a = AndroidCoarseFudger(seed: 42, now: Self.start), b = AndroidCoarseFudger(seed: 42, now: Self.start)
        #expect(a.coarsen(Self.fix(51.5, -0.12), now: Self.start) == b.coarsen(Self.fix(51.5, -0.12), now: Self.start))
        let polar = a.coarsen(Self.fix(90, 0), now: Self.start)
        #expect(polar.latitude <= 90 - 1.0 / 111_000 && polar.longitude.isFinite)
    }
}
