import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSD

@Suite("gpsd reports (gpsd_json(5) SKY to a sky)")
struct GPSDSkyReportTests {
    let received = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 8 * 3600)

    @Test("N8: a SKY gpsd 3.22 wrote (haicom-305N.log.chk) is the sky it lists, satellite by satellite; nSat and uSat agree")
    func gpsdOwnSky() throws {
        let line = #"{"class":"SKY","nSat":4,"uSat":0,"satellites":[{"PRN":24,"el":58.0,"az":220.0,"ss":0.0,"used":false,"gnssid":0,"svid":24},{"PRN":26,"el":17.0,"az":53.0,"ss":0.0,"used":false,"gnssid":0,"svid":26},{"PRN":29,"el":20.0,"az":63.0,"ss":0.0,"used":false,"gnssid":0,"svid":29},{"PRN":30,"el":60.0,"az":311.0,"ss":44.0,"used":false,"gnssid":0,"svid":30}]}"#
        let expected = SkyView(satellites: [
            SatelliteInView(constellation: .gps, svid: 24, elevation: 58, azimuth: 220, cn0: 0, used: false),
            SatelliteInView(constellation: .gps, svid: 26, elevation: 17, azimuth: 53, cn0: 0, used: false),
            SatelliteInView(constellation: .gps, svid: 29, elevation: 20, azimuth: 63, cn0: 0, used: false),
            SatelliteInView(constellation: .gps, svid: 30, elevation: 60, azimuth: 311, cn0: 44, used: false),
        ])
        let report = try GPSDReport.decode(line: line, receivedAt: received)
        #expect(report == .sky(expected, time: nil))
        #expect(expected.inView == 4 && expected.used == 0)
    }

    @Test("A SKY with only its DOPs (no satellites) says nothing of the sky; its time, when it has one, is the sky's")
    func dopsOnlyAndTime() throws {
        let dops = #"{"class":"SKY","device":"/dev/ttyUSB0","xdop":1.26,"ydop":2.39,"hdop":2.72,"pdop":6.24}"#
        #expect(try GPSDReport.decode(line: dops, receivedAt: received) == .other(class: "SKY"))
        let timed = #"{"class":"SKY","time":"2026-03-01T08:00:05.000Z","satellites":[]}"#
        let time = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 8 * 3600 + 5)
        #expect(try GPSDReport.decode(line: timed, receivedAt: received) == .sky(SkyView(satellites: []), time: time))
    }

    @Test("A SKY without a time takes the latest fix's (the receiver's clock); one before the first fix is not passed on")
    func skyOnTheFixesClock() throws {
        var tracker = GPSDStateTracker()
        let sky = try GPSDReport.decode(line: #"{"class":"SKY","satellites":[{"gnssid":0,"svid":5,"ss":30,"used":true}]}"#, receivedAt: received)
        func skies(_ events: [GPSDSourceEvent]) -> [Sample] {
            events.compactMap { event in
                guard case .sample(let sample) = event, sample.value.sky != nil else { return nil }
                return sample
            }
        }
        #expect(skies(tracker.received(sky, at: received)).isEmpty)
        // A TPV without fix says nothing of the receiver's clock (its time may be gpsd's arrival).
        #expect(skies(tracker.received(.noFix(time: received), at: received)).isEmpty)
        #expect(skies(tracker.received(sky, at: received)).isEmpty)
        let receiverTime = Timestamp(year: 2019, month: 4, day: 6, secondsOfDay: 3600)
        _ = tracker.received(.position(LocationFix(latitude: 1, longitude: 2, time: receiverTime)), at: received)
        let five = SatelliteInView(constellation: .gps, svid: 5, cn0: 30, used: true)
        #expect(skies(tracker.received(sky, at: received)) == [Sample(time: receiverTime, value: .sky(SkyView(satellites: [five])))])
    }

    @Test("Without gnssid and svid (gpsd before 3.18) a satellite is named by its PRN in gpsd's numbering")
    func prnOnly() throws {
        let line = #"{"class":"SKY","satellites":[{"PRN":65,"el":10,"az":20,"ss":30,"used":true},{"PRN":46,"ss":20,"used":false},{"PRN":305,"ss":25,"used":true},{"PRN":412,"ss":0,"used":false},{"PRN":199,"ss":1,"used":false}]}"#
        guard case .sky(let sky, _) = try GPSDReport.decode(line: line, receivedAt: received) else { Issue.record("not a sky"); return }
        #expect(sky.satellites.map { "\($0.constellation) \($0.svid)" } == ["glonass 1", "sbas 133", "galileo 5", "beidou 12", "qzss 7"])
        #expect(sky.satellites.map(\.prn) == [65, 46, 305, 412, 199], "gpsd's PRN read back is the PRN")
    }

    @Test("Values out of range are dropped, satellites Sextant cannot name are left out, the rest kept")
    func outOfRange() throws {
        let line = #"{"class":"SKY","satellites":[{"gnssid":0,"svid":7,"el":-91,"az":360,"ss":-1,"used":true},{"gnssid":7,"svid":3,"ss":30,"used":true},{"gnssid":0,"svid":99,"ss":30,"used":true},{"PRN":0},"junk",{"gnssid":2,"svid":11,"el":45,"az":90.5,"ss":"x","used":"yes"}]}"#
        guard case .sky(let sky, _) = try GPSDReport.decode(line: line, receivedAt: received) else { Issue.record("not a sky"); return }
        #expect(sky.satellites == [
            SatelliteInView(constellation: .gps, svid: 7, elevation: nil, azimuth: 0, cn0: 0, used: true),
            SatelliteInView(constellation: .galileo, svid: 11, elevation: 45, azimuth: 90.5, cn0: 0, used: false),
        ])
    }

    @Test("N8: a SKY listing a satellite twice (by gnssid/svid and again by PRN) is a sky of it once: its strongest ss, used when either is (issue 36.14)")
    func duplicateSatellite() throws {
        let line = #"{"class":"SKY","satellites":[{"gnssid":0,"svid":5,"el":40,"az":83,"ss":30,"used":false},{"PRN":5,"ss":44,"used":true},{"gnssid":2,"svid":5,"ss":20,"used":false}]}"#
        guard case .sky(let sky, _) = try GPSDReport.decode(line: line, receivedAt: received) else {
            Issue.record("not a sky")
            return
        }
        #expect(sky.satellites == [
            SatelliteInView(constellation: .gps, svid: 5, elevation: 40, azimuth: 83, cn0: 44, used: true),
            SatelliteInView(constellation: .galileo, svid: 5, cn0: 20, used: false),
        ])
        #expect(sky.inView == 2 && sky.used == 1)
    }
}
