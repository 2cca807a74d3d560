import Foundation
import SextantCore
import SextantProtocol
import Testing

/// The made-up sky (RULES N8): satellites on orbits drawn from the seed, seen through each
/// preset's conditions (`SkyConditions`), by the receiver's reception.
@Suite("Satellites: the sky made up from a GNSS profile (N8)")
struct SkySynthesisTests {
    static let start = GNSSTrack.start

    static func time(_ second: Double) -> Timestamp { Timestamp(nanoseconds: start.nanoseconds + Int64(second * 1e9)) }

    /// The mean satellites in view and used, and the mean C/N0 of those in view, over a day
    /// sampled every 10 minutes (144 skies).
    static func means(_ conditions: SkyConditions, seed: UInt64 = 1) -> (inView: Double, used: Double, cn0: Double) {
        let sky = SkySynthesis(seed: seed)
        var inView = 0, used = 0, cn0 = 0.0
        for k in 0..<144 {
            let view = sky.sky(at: time(Double(k) * 600), conditions: conditions, reception: .fix)
            inView += view.inView
            used += view.used
            cn0 += view.satellites.reduce(0) { $0 + $1.cn0 }
        }
        return (Double(inView) / 144, Double(used) / 144, cn0 / Double(max(1, inView)))
    }

    @Test("N8: the same seed and time give the same sky; another seed another one")
    func deterministic() {
        let a = SkySynthesis(seed: 7).sky(at: Self.time(100), conditions: .urban, reception: .fix)
        let b = SkySynthesis(seed: 7).sky(at: Self.time(100), conditions: .urban, reception: .fix)
        let c = SkySynthesis(seed: 8).sky(at: Self.time(100), conditions: .urban, reception: .fix)
        #expect(a == b && !a.satellites.isEmpty)
        #expect(a != c)
    }

    @Test("N8: satellites move slowly (under 0.1° a second) and rise and set over hours")
    func slowMotion() {
        let sky = SkySynthesis(seed: 3)
        let now = sky.sky(at: Self.time(1000), conditions: .openSky, reception: .fix).satellites
        let next = sky.sky(at: Self.time(1001), conditions: .openSky, reception: .fix).satellites
        for satellite in now {
            guard let later = next.first(where: { $0.constellation == satellite.constellation && $0.svid == satellite.svid }) else { continue }
            #expect(abs(later.elevation! - satellite.elevation!) <= 0.1 + 1e-9, "\(satellite) → \(later)")
        }
        let hoursLater = sky.sky(at: Self.time(1000 + 4 * 3600), conditions: .openSky, reception: .fix).satellites
        let ids = { (list: [SatelliteInView]) in Set(list.map { "\($0.constellation)\($0.svid)" }) }
        #expect(ids(now) != ids(hoursLater))
        #expect(!ids(now).intersection(ids(next)).isEmpty && ids(now).count - ids(now).intersection(ids(next)).count <= 2)
    }

    @Test("N8: every satellite made up is a valid one, above its preset's mask, with gpsd's PRN for its system")
    func validSatellites() {
        for conditions in [SkyConditions.openSky, .urban, .forest, .indoor] {
            let view = SkySynthesis(seed: 11).sky(at: Self.time(5000), conditions: conditions, reception: .fix)
            for satellite in view.satellites {
                #expect(satellite.problem == nil, "\(satellite)")
                #expect(satellite.elevation! >= min(conditions.elevationMask, conditions.streetMask ?? 90))
                #expect(satellite.cn0 >= SkyConditions.trackingThreshold)
            }
        }
        // gpsd 3.22's PRNs in the shared .chk files: BeiDou 1 is 401, QZSS 1 is 193, GLONASS 2 is 66.
        #expect(Constellation.beidou.prn(svid: 1) == 401 && Constellation.qzss.prn(svid: 1) == 193 && Constellation.glonass.prn(svid: 2) == 66)
        #expect(Constellation.galileo.prn(svid: 5) == 305 && Constellation.gps.prn(svid: 32) == 32)
    }

    /// The means of RULES N8's table (seed 1, a day every 10 minutes): open sky 50.3 in
    /// view, 45.9 used, 40.2 dB-Hz; forest 45.9, 45.9, 32.8; urban 25.0, 25.0, 38.2;
    /// indoor 16.5, 4.6, 18.8.
    @Test("N8: counts and C/N0 follow the preset — open sky about 50 in view, forest weaker, urban half, indoor few, weak and barely used")
    func presetCounts() {
        let open = Self.means(.openSky), urban = Self.means(.urban), forest = Self.means(.forest), indoor = Self.means(.indoor)
        #expect((45...55).contains(open.inView) && open.used >= 40 && (38...42).contains(open.cn0), "open sky \(open)")
        #expect(forest.inView < open.inView && (31...35).contains(forest.cn0), "forest \(forest)")
        #expect((20...30).contains(urban.inView) && urban.used >= 20, "urban \(urban)")
        #expect((10...25).contains(indoor.inView) && (2...8).contains(indoor.used) && (17...21).contains(indoor.cn0), "indoor \(indoor)")
    }

    @Test("N8: in a tunnel no satellite; while acquiring, satellites in view and none used")
    func reception() {
        let sky = SkySynthesis(seed: 2)
        #expect(sky.sky(at: Self.time(10), conditions: .openSky, reception: .blocked).satellites.isEmpty)
        let acquiring = sky.sky(at: Self.time(10), conditions: .openSky, reception: .acquiring)
        #expect(acquiring.inView > 20 && acquiring.used == 0)
    }

    @Test("N8: the profile's receiver says what it sees — tunnel@60+30 blocks the sky from 60 s, acquires after 90 s, fixes from 91 s")
    func degradationReception() {
        var engine = GNSSTrack.engine("open-sky,tunnel@60+30")
        var seen: [Int: SkyReception] = [:]
        for second in 0..<120 {
            _ = engine.report(GNSSTrack.truth(at: Double(second)))
            seen[second] = engine.reception
        }
        #expect(seen[0] == .acquiring && seen[1] == .fix && seen[59] == .fix)
        #expect(seen[60] == .blocked && seen[89] == .blocked && seen[90] == .acquiring && seen[91] == .fix)
    }

    @Test("a sky's JSON reads back; a bad satellite is refused naming its index and member")
    func skyJSON() throws {
        let view = SkySynthesis(seed: 5).sky(at: Self.time(0), conditions: .forest, reception: .fix)
        #expect(try SkyView.read(view.jsonValue).get() == view)
        let bad: JSONValue = ["satellites": [["constellation": "gps", "svid": 3, "el": 95, "cn0": 30, "used": true]]]
        #expect(throws: SkyProblem("sky.satellites[0]: satellite gps 3: el must be within -90...90 degrees")) { try SkyView.read(bad).get() }
        let unknown: JSONValue = ["satellites": [["constellation": "irnss", "svid": 3, "cn0": 30, "used": true]]]
        #expect(throws: SkyProblem.self) { try SkyView.read(unknown).get() }
    }
}
