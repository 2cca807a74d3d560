import Foundation
import SextantCore
import SextantProtocol
import Testing

/// The GNSS profile's error model (RULES N1–N3, N5), with the numbers of N3 cited and
/// checked over long seeded runs.
@Suite("GNSS profiles: the error model (N1–N3, N5)")
struct GNSSProfileTests {
    @Test("N5: the same seed gives the same fixes; another seed other fixes")
    func g5SameSeedSameFixes() {
        var a = GNSSTrack.engine("urban", seed: 7)
        var b = GNSSTrack.engine("urban", seed: 7)
        var c = GNSSTrack.engine("urban", seed: 8)
        let first = GNSSTrack.play(&a, to: 600).map(\.reported)
        #expect(first == GNSSTrack.play(&b, to: 600).map(\.reported))
        #expect(first != GNSSTrack.play(&c, to: 600).map(\.reported))
        #expect(first.compactMap { $0 }.count > 500)
    }

    @Test("N5: the state follows the fixes' times, not how they are fed: one engine, or a copy carried on mid-way, gives the same")
    func g5SplitRunIsOneRun() {
        var whole = GNSSTrack.engine("forest")
        let oneRun = GNSSTrack.play(&whole, to: 400).map(\.reported)
        var first = GNSSTrack.engine("forest")
        let before = GNSSTrack.play(&first, to: 150).map(\.reported)
        var carried = first
        let after = GNSSTrack.play(&carried, from: 150, to: 400).map(\.reported)
        #expect(oneRun == before + after)
    }

    @Test("N1: the error is a Gauss–Markov walk, not white noise: at 1 Hz successive errors correlate as exp(−1/τ)", arguments: GNSSPreset.all)
    func g1CorrelatedError(_ preset: GNSSPreset) {
        var engine = GNSSTrack.engine(preset.name, seed: 11)
        let errors = GNSSTrack.play(&engine, to: 40_000).compactMap { pair in pair.reported.map { GNSSTrack.error($0, pair.truth).north } }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let deviations = errors.map { $0 - mean }
        var lagged = 0.0, variance = 0.0
        for i in 1..<deviations.count {
            lagged += deviations[i] * deviations[i - 1]
            variance += deviations[i] * deviations[i]
        }
        let expected = exp(-1 / preset.correlationTime)
        // Multipath jumps are east and north alike; an outage's re-acquisition breaks the walk.
        #expect(lagged / variance > expected - 0.1, "lag-1 correlation \(lagged / variance), expected about \(expected)")
        #expect(lagged / variance > 0.85)
    }

    @Test("N2/N3: the true error is within hAcc 60–76 % of the time, and within vAcc 60–76 % (68 % promised)", arguments: GNSSPreset.all)
    func g2AccuracyCoversTheError(_ preset: GNSSPreset) {
        var engine = GNSSTrack.engine(preset.name, seed: 23)
        var within = 0, withinVertical = 0, count = 0
        for (truth, reported) in GNSSTrack.play(&engine, to: 100_000) {
            guard let reported else { continue }
            let error = GNSSTrack.error(reported, truth)
            count += 1
            if (error.north * error.north + error.east * error.east).squareRoot() <= reported.horizontalAccuracy { within += 1 }
            if abs(error.up) <= reported.verticalAccuracy! { withinVertical += 1 }
        }
        let horizontal = Double(within) / Double(count), vertical = Double(withinVertical) / Double(count)
        #expect((0.60...0.76).contains(horizontal), "\(preset.name): hAcc covers \(horizontal)")
        #expect((0.60...0.76).contains(vertical), "\(preset.name): vAcc covers \(vertical)")
    }

    @Test("N3: each preset's error has the scale written down: median hAcc in steady state is 1.51 × σ (open-sky 2.3 m, forest 6 m, urban 9 m, indoor 30 m)", arguments: GNSSPreset.all)
    func g3PresetScale(_ preset: GNSSPreset) {
        var engine = GNSSTrack.engine(preset.name, seed: 5)
        let accuracies = GNSSTrack.play(&engine, to: 20_000).compactMap { $0.reported?.horizontalAccuracy }.sorted()
        let median = accuracies[accuracies.count / 2]
        #expect(abs(median - GNSSPreset.horizontalCoverage * preset.horizontalSigma) < 0.05 * preset.horizontalSigma, "\(preset.name): median hAcc \(median)")
        let written = ["open-sky": 1.5, "forest": 4, "urban": 6, "indoor": 20][preset.name]
        #expect(preset.horizontalSigma == written)
    }

    @Test("N3: urban has multipath jumps (15–60 m, every 45 s on average); open-sky and forest have none")
    func g3UrbanMultipath() {
        func jumps(_ spec: String) -> Int {
            var engine = GNSSTrack.engine(spec, seed: 3)
            var count = 0
            var last: (north: Double, east: Double)?
            for (truth, reported) in GNSSTrack.play(&engine, to: 9000) {
                guard let reported else {
                    last = nil
                    continue
                }
                let error = GNSSTrack.error(reported, truth)
                if let last, ((error.north - last.north) * (error.north - last.north) + (error.east - last.east) * (error.east - last.east)).squareRoot() > 12 { count += 1 }
                last = (error.north, error.east)
            }
            return count
        }
        // 9000 s at one jump every 45 s: about 200 starts, as many ends, most of them > 12 m.
        #expect((150...500).contains(jumps("urban")), "urban: \(jumps("urban")) jumps")
        #expect(jumps("open-sky") == 0)
        #expect(jumps("forest") == 0)
    }

    @Test("N2: a fix without an altitude gets none and no vAcc; speed, course and time stay the truth's")
    func g2NoAltitudeStaysNone() {
        var engine = GNSSTrack.engine("open-sky")
        var truth = GNSSTrack.truth(at: 10)
        truth.altitude = nil
        truth.verticalAccuracy = nil
        _ = engine.report(GNSSTrack.truth(at: 0))
        let reported = engine.report(truth)
        #expect(reported != nil)
        #expect(reported?.altitude == nil && reported?.verticalAccuracy == nil)
        #expect(reported?.speed == truth.speed && reported?.course == truth.course && reported?.time == truth.time)
    }
}

extension GNSSPreset: CustomTestStringConvertible {
    public var testDescription: String { name }
}
