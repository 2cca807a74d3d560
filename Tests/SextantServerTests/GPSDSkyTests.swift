import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSDFace
@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// gpsd's `SKY` on the gpsd face, in process (RULES N8, G6; docs/gpsd.md "SKY").
@Suite("gpsd face: SKY, in process (N8, G6)", .timeLimit(.minutes(1)))
struct GPSDSkyTests {
    private func watching(_ hub: InProcessHub, accuracy: String = "full") async throws -> (control: TestClient, gpsd: GPSDTestClient) {
        let control = try await hub.connect(.control)
        _ = try await control.call(
            Method.permissionsSet, ["app": .string(GPSDPeer.unknownApp), "status": "authorizedAlways", "accuracy": .string(accuracy)])
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(#"?WATCH={"enable":true,"json":true}"#)
        _ = try await gpsd.nextReport(ofClass: "WATCH")
        return (control, gpsd)
    }

    @Test("N8, G6: a watching client gets gpsd's SKY: nSat, uSat, and each satellite's PRN, el, az, ss, used, gnssid, svid in gpsd's order")
    func skyReport() async throws {
        let hub = try InProcessHub()
        let (_, gpsd) = try await watching(hub)
        let own = SkyView(satellites: [
            SatelliteInView(constellation: .glonass, svid: 2, cn0: 0, used: false),
            SatelliteInView(constellation: .beidou, svid: 7, elevation: 33.5, azimuth: 12, cn0: 31.5, used: true),
        ])
        try await hub.onLoop { hub in hub.ingest(Sample(time: hub.now.wall, value: .sky(own)), from: .manual) }
        var line = try await gpsd.nextLine()
        while !line.contains(#""class":"SKY""#) { line = try await gpsd.nextLine() }
        #expect(line.hasPrefix(#"{"class":"SKY","device":"/dev/sextant0","time":""#), "\(line)")
        #expect(line.hasSuffix(#","nSat":2,"uSat":1,"satellites":[{"PRN":407,"el":33.5,"az":12.0,"ss":31.5,"used":true,"gnssid":3,"svid":7},{"PRN":66,"ss":0.0,"used":false,"gnssid":6,"svid":2}]}"#), "\(line)")
    }

    @Test("N8: a sky listing a satellite twice reaches the gpsd client and the app once, merged (issue 36.14)")
    func duplicateSatellitesOnce() async throws {
        let hub = try InProcessHub()
        let (_, gpsd) = try await watching(hub)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.sky"])
        _ = try await hub.connect(.control).call(Method.permissionsSet, ["app": "com.example.sky", "status": "authorizedAlways", "accuracy": "full"])
        _ = try await app.call(Method.satellitesStart)
        let twice = SkyView(satellites: [
            SatelliteInView(constellation: .gps, svid: 5, elevation: 40, azimuth: 83, cn0: 30, used: false),
            SatelliteInView(constellation: .galileo, svid: 5, cn0: 20, used: false),
            SatelliteInView(constellation: .gps, svid: 5, elevation: 40, azimuth: 83, cn0: 44, used: true),
        ])
        try await hub.onLoop { hub in hub.ingest(Sample(time: hub.now.wall, value: .sky(twice)), from: .manual) }
        let sky = try await gpsd.nextReport(ofClass: "SKY")
        #expect(sky["nSat"] == 2 && sky["uSat"] == 1, "\(sky)")
        #expect(sky["satellites"]?.arrayValue?.map { $0["PRN"] } == [5, 305], "\(sky)")
        #expect(sky["satellites"]?.arrayValue?.first?["ss"] == 44.0, "\(sky)")
        await hub.advance(by: .milliseconds(1))
        let heard = try await app.drainEvents().filter { $0.method == Event.satellites }.map(\.params)
        #expect(heard.count == 1 && heard.first?["inView"] == 2 && heard.first?["used"] == 1, "\(heard)")
    }

    @Test("N8: PRN as gpsd 3.22 writes it: SBAS 133 is 46 (isync.log.chk), SBAS 152 152, GLONASS 64 + svid, QZSS 192 + svid, Galileo 300 + svid")
    func prnNumbering() {
        func prn(_ constellation: Constellation, _ svid: Int) -> Int { SatelliteInView(constellation: constellation, svid: svid, cn0: 0, used: false).prn }
        #expect(prn(.sbas, 133) == 46 && prn(.sbas, 120) == 33 && prn(.sbas, 152) == 152 && prn(.gps, 5) == 5)
        #expect(prn(.glonass, 2) == 66 && prn(.qzss, 1) == 193 && prn(.galileo, 11) == 311 && prn(.beidou, 7) == 407)
    }

    @Test("G6: the made-up open sky (about 50 in view) is listed as 20 satellites, the used ones first and strongest first")
    func madeUpSkyIsCapped() async throws {
        let hub = try InProcessHub()
        let (_, gpsd) = try await watching(hub)
        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        let sky = try await gpsd.nextReport(ofClass: "SKY")
        let satellites = try #require(sky["satellites"]?.arrayValue)
        #expect(satellites.count == GPSDReport.skySatelliteLimit && sky["nSat"] == 20 && sky["uSat"] == 20, "\(sky)")
        let strengths = satellites.compactMap { $0["ss"]?.doubleValue }
        #expect(strengths == strengths.sorted(by: >), "strongest first: \(strengths)")
    }

    @Test("G6: a SKY of 20 of the longest satellites, at the longest time, is shorter than the 1944 bytes that end cgps 3.22 on 80×24")
    func longestSkyFitsCgps() {
        let longest = SatelliteInView(constellation: .beidou, svid: 63, elevation: -89.96, azimuth: 359.99, cn0: SatelliteInView.maximumCN0, used: false)
        // Distinct satellites (a sky keeps one entry per satellite), each as long as svid 63's.
        let sky = SkyView(satellites: [longest] + (10..<63).map { svid in var s = longest; s.svid = svid; return s })
        let line = GPSDReport.sky(WireSky(sky: sky, time: Timestamp(seconds: 9_000_000_000.999)), device: GPSDDevice.path)
        #expect(line.utf8.count - 2 < 81 * 24, "\(line.utf8.count) bytes")
        #expect(line.contains(#"{"PRN":463,"el":-90.0,"az":360.0,"ss":99.0,"used":false,"gnssid":3,"svid":63}"#), "\(line)")
    }

    @Test("N8, L10, L9: a client with reduced accuracy gets no SKY, and none once denied")
    func reducedAndRevoked() async throws {
        let hub = try InProcessHub()
        let (control, gpsd) = try await watching(hub, accuracy: "reduced")
        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        // The first reduced fix waits for the app's grid offset to be stored (L10).
        let reduced = try await gpsd.reports(through: "TPV")
        #expect(reduced.allSatisfy { $0["class"] != "SKY" }, "\(reduced)")
        _ = try await control.call(Method.permissionsSet, ["app": .string(GPSDPeer.unknownApp), "status": "authorizedAlways", "accuracy": "full"])
        await hub.advance(by: .seconds(2))
        try await FanOutTests.ingestFix(hub, latitude: 48.851)
        _ = try await gpsd.nextReport(ofClass: "SKY")
        _ = try await control.call(Method.permissionsSet, ["app": .string(GPSDPeer.unknownApp), "status": "denied"])
        await hub.advance(by: .seconds(2))
        try await FanOutTests.ingestFix(hub, latitude: 48.852)
        let after = try await gpsd.reports(through: "TPV") { $0["mode"] == 1 }
        #expect(after.allSatisfy { $0["class"] != "SKY" }, "\(after)")
    }
}
