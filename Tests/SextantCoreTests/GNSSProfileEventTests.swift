import Foundation
import SextantCore
import SextantProtocol
import Testing

/// The GNSS profile's starts, outages and seeks (RULES N4, N5) and its spec (N3).
@Suite("GNSS profiles: starts, tunnels, seeks and specs (N3–N5)")
struct GNSSProfileEventTests {
    /// The seconds of the track that got no fix.
    static func withoutFix(_ played: [(truth: LocationFix, reported: LocationFix?)]) -> [Double] {
        played.filter { $0.reported == nil }.map { GNSSTrack.seconds($0.truth) }
    }

    @Test("N4: a hot start gives no fix for the preset's hot start (urban 5 s); cold-start for its cold start (urban 45 s)")
    func g4TimeToFirstFix() {
        var hot = GNSSTrack.engine("urban")
        #expect(Self.withoutFix(GNSSTrack.play(&hot, to: 120)) == [0, 1, 2, 3, 4])
        var cold = GNSSTrack.engine("urban,cold-start")
        #expect(Self.withoutFix(GNSSTrack.play(&cold, to: 120)) == (0..<45).map(Double.init))
    }

    @Test("N4: tunnel@60+30 gives no fix from 60 s to 90 s, nor for the hot start after it; then a fix with a wider hAcc that settles back")
    func g4TunnelThenReacquisition() {
        var engine = GNSSTrack.engine("open-sky,tunnel@60+30")
        let played = GNSSTrack.play(&engine, to: 400)
        // open-sky's hot start is 1 s: no fix at 0, then none from 60 to 90 + 1.
        #expect(Self.withoutFix(played) == [0] + (60..<91).map(Double.init))
        let reacquired = played[91].reported!.horizontalAccuracy
        let steady = GNSSPreset.horizontalCoverage * GNSSPreset.openSky.horizontalSigma
        #expect(abs(reacquired - 2 * steady) < 0.1, "reacquired hAcc \(reacquired), twice \(steady) expected")
        #expect(abs(played[399].reported!.horizontalAccuracy - steady) < 0.01)
        #expect(played[59].reported != nil)
    }

    @Test("N3: indoor loses its fix by itself now and then (every 90 s on average, for 10–40 s)")
    func g3IndoorOutages() {
        var engine = GNSSTrack.engine("indoor", seed: 4)
        let gaps = Self.withoutFix(GNSSTrack.play(&engine, to: 3600))
        let outages = zip(gaps, gaps.dropFirst()).filter { $1 - $0 > 1 }.count
        #expect((15...60).contains(outages), "\(outages) outages in an hour")
        var openSky = GNSSTrack.engine("open-sky", seed: 4)
        #expect(Self.withoutFix(GNSSTrack.play(&openSky, to: 3600)) == [0])
    }

    @Test("N5: after a seek, the fixes depend on the seed and the seek's time only, not on what was played before")
    func g5SeekForgetsThePast() {
        var long = GNSSTrack.engine("urban,tunnel@300+20")
        _ = GNSSTrack.play(&long, to: 120)
        long.seek()
        var short = GNSSTrack.engine("urban,tunnel@300+20")
        _ = GNSSTrack.play(&short, to: 17)
        short.seek()
        let a = GNSSTrack.play(&long, from: 200, to: 500)
        let b = GNSSTrack.play(&short, from: 200, to: 500)
        #expect(a.map(\.reported) == b.map(\.reported))
        // The seek is a hot start (5 s), and the tunnel still counts from the first fix.
        #expect(Self.withoutFix(a) == [200, 201, 202, 203, 204] + (300..<325).map(Double.init))
    }

    @Test("N5: a fix older than the last one (a seek backwards, a trace played again) is a seek")
    func g5TimeBackwardsIsASeek() {
        var replayed = GNSSTrack.engine("forest")
        _ = GNSSTrack.play(&replayed, to: 100)
        let again = GNSSTrack.play(&replayed, from: 50, to: 200)
        var sought = GNSSTrack.engine("forest")
        _ = GNSSTrack.play(&sought, to: 10)
        sought.seek()
        #expect(again.map(\.reported) == GNSSTrack.play(&sought, from: 50, to: 200).map(\.reported))
    }

    @Test("N3: specs read and write back; a wrong one names what is wrong and what is allowed")
    func g3Specs() throws {
        let spec = try GNSSProfileSpec.parse("urban,cold-start,tunnel@60+30,tunnel@120.5+2").get()
        #expect(spec.preset == .urban && spec.coldStart)
        #expect(spec.tunnels == [.init(start: 60, duration: 30), .init(start: 120.5, duration: 2)])
        #expect(spec.description == "urban,cold-start,tunnel@60+30,tunnel@120.5+2")
        #expect(try GNSSProfileSpec.parse(spec.description).get() == spec)
        #expect(throws: GNSSProfileSpecError("unknown GNSS preset 'city': use one of open-sky, urban, forest, indoor")) {
            try GNSSProfileSpec.parse("city").get()
        }
        for bad in ["urban,tunnel@60", "urban,tunnel@-1+3", "urban,tunnel@5+0", "urban,warm-start", "urban,"] {
            #expect(throws: GNSSProfileSpecError.self, "\(bad)") { try GNSSProfileSpec.parse(bad).get() }
        }
    }
}
