import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSD

@Suite("gpsd reports (gpsd_json(5) TPV to a location)")
struct GPSDReportTests {
    let received = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 8 * 3600)

    @Test("gpsd_json(5)'s own TPV example maps field by field")
    func manualExample() throws {
        // The example printed in gpsd_json(5), TPV section.
        let line = #"{"class":"TPV","device":"/dev/pts/1","time":"2005-06-08T10:34:48.283Z","ept":0.005,"lat":46.498293369,"lon":7.567411672,"alt":1343.127,"eph":36.000,"epv":32.321,"track":10.3788,"speed":0.091,"climb":-0.085,"mode":3}"#
        let report = try GPSDReport.decode(line: line, receivedAt: received)
        let expected = LocationFix(
            latitude: 46.498293369, longitude: 7.567411672, altitude: 1343.127, horizontalAccuracy: 36, verticalAccuracy: 32.321,
            speed: 0.091, course: 10.3788, time: Timestamp(year: 2005, month: 6, day: 8, secondsOfDay: 10 * 3600 + 34 * 60 + 48.283))
        #expect(report == .position(expected))
    }

    @Test("Altitude: altMSL first, then altHAE, then the deprecated alt")
    func altitudePreference() throws {
        func altitude(_ fields: String) throws -> Double? {
            let line = #"{"class":"TPV","mode":3,"lat":1,"lon":2,"# + fields + "}"
            guard case .position(let fix) = try GPSDReport.decode(line: line, receivedAt: received) else { return nil }
            return fix.altitude
        }
        #expect(try altitude(#""altHAE":53.6,"altMSL":8.8,"alt":7"#) == 8.8)
        #expect(try altitude(#""altHAE":53.6,"alt":7"#) == 53.6)
        #expect(try altitude(#""alt":7"#) == 7)
        #expect(try altitude(#""track":1"#) == nil)
    }

    @Test("hAcc: eph; else the diagonal of epx and epy (3-4-5 m); else the protocol's 5 m default")
    func horizontalAccuracy() throws {
        func hAcc(_ fields: String) throws -> Double? {
            let line = #"{"class":"TPV","mode":2,"lat":1,"lon":2,"# + fields + "}"
            guard case .position(let fix) = try GPSDReport.decode(line: line, receivedAt: received) else { return nil }
            return fix.horizontalAccuracy
        }
        #expect(try hAcc(#""eph":19.0,"epx":3,"epy":4"#) == 19)
        #expect(try hAcc(#""epx":3,"epy":4"#) == 5)
        #expect(try hAcc(#""epx":3"#) == 5)  // one axis alone is not a radius: the default
        #expect(try hAcc(#""speed":0"#) == LocationFix.defaultHorizontalAccuracy)
    }

    @Test("A fix without time takes the time it was received; vAcc, speed and course are absent when gpsd omits them")
    func missingFields() throws {
        let report = try GPSDReport.decode(line: #"{"class":"TPV","device":"/tmp/f","mode":3,"lat":52.0141983,"lon":4.36302}"#, receivedAt: received)
        #expect(report == .position(LocationFix(latitude: 52.0141983, longitude: 4.36302, time: received)))
    }

    @Test("issue 23.5/N7: a TPV with status 8 (STATUS_SIM) is a simulated fix; any other status is not")
    func simulatedStatus() throws {
        func simulated(_ fields: String) throws -> Bool? {
            let line = #"{"class":"TPV","mode":3,"lat":38.9,"lon":-77.4"# + fields + "}"
            guard case .position(let fix) = try GPSDReport.decode(line: line, receivedAt: received) else { return nil }
            return fix.simulated
        }
        #expect(try simulated(#","status":8"#) == true)
        #expect(try simulated(#","status":2"#) == false)
        #expect(try simulated("") == false)
    }

    @Test("Mode 0 and 1 are no fix, even with a stale position; their own time is kept")
    func noFix() throws {
        #expect(try GPSDReport.decode(line: #"{"class":"TPV","device":"/tmp/f","mode":1}"#, receivedAt: received) == .noFix(time: received))
        let stale = #"{"class":"TPV","mode":1,"time":"2020-01-26T10:00:01.000Z","lat":1,"lon":2}"#
        #expect(try GPSDReport.decode(line: stale, receivedAt: received) == .noFix(time: Timestamp(year: 2020, month: 1, day: 26, secondsOfDay: 36001)))
        #expect(try GPSDReport.decode(line: #"{"class":"TPV","mode":0}"#, receivedAt: received) == .noFix(time: received))
        #expect(try GPSDReport.decode(line: #"{"class":"TPV"}"#, receivedAt: received) == .noFix(time: received))
    }

    @Test("A TPV claiming a fix without a usable position is not a location")
    func fixWithoutPosition() throws {
        #expect(try GPSDReport.decode(line: #"{"class":"TPV","mode":3,"time":"2014-05-26T00:00:00.000Z"}"#, receivedAt: received) == .fixWithoutPosition(mode: 3))
        #expect(try GPSDReport.decode(line: #"{"class":"TPV","mode":2,"lat":91,"lon":0}"#, receivedAt: received) == .fixWithoutPosition(mode: 2))
    }

    @Test("The class comes from the line: VERSION, SKY and others are told apart")
    func classes() throws {
        let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
        #expect(try GPSDReport.decode(line: version, receivedAt: received) == .version(release: "3.22"))
        let sky = #"{"class":"SKY","device":"/tmp/f","hdop":1.0,"satellites":[{"PRN":12,"el":73.0,"az":67.0,"ss":0.0,"used":false}]}"#
        let twelve = SatelliteInView(constellation: .gps, svid: 12, elevation: 73, azimuth: 67, cn0: 0, used: false)
        #expect(try GPSDReport.decode(line: sky, receivedAt: received) == .sky(SkyView(satellites: [twelve]), time: nil))
        #expect(try GPSDReport.decode(line: #"{"class":"WATCH","enable":true,"json":true}"#, receivedAt: received) == .other(class: "WATCH"))
    }

    @Test("DEVICES lists gpsd's devices by path; DEVICE tells one activated or, without `activated`, gone")
    func devices() throws {
        let listed = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","activated":"2026-03-01T08:00:00.000Z"},{"class":"DEVICE","path":"/tmp/nmea.fifo"}]}"#
        #expect(try GPSDReport.decode(line: listed, receivedAt: received) == .devices(["/dev/ttyUSB0", "/tmp/nmea.fifo"]))
        #expect(try GPSDReport.decode(line: #"{"class":"DEVICES","devices":[]}"#, receivedAt: received) == .devices([]))
        let on = #"{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox","activated":"2026-03-01T08:00:00.000Z"}"#
        #expect(try GPSDReport.decode(line: on, receivedAt: received) == .device(path: "/dev/ttyACM0", active: true))
        #expect(try GPSDReport.decode(line: #"{"class":"DEVICE","path":"/dev/ttyACM0"}"#, receivedAt: received) == .device(path: "/dev/ttyACM0", active: false))
        #expect(try GPSDReport.decode(line: #"{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}"#, receivedAt: received) == .device(path: "/dev/ttyACM0", active: false))
        #expect(try GPSDReport.decode(line: #"{"class":"DEVICE","driver":"x"}"#, receivedAt: received) == .other(class: "DEVICE"))
    }

    @Test("What gpsd lists is bounded: 16 devices, 256 characters a path")
    func devicesBounded() throws {
        let many = (0..<40).map { #"{"path":"/dev/gps\#($0)"}"# }.joined(separator: ",")
        guard case .devices(let paths) = try GPSDReport.decode(line: #"{"class":"DEVICES","devices":[\#(many)]}"#, receivedAt: received) else {
            Issue.record("not a DEVICES report")
            return
        }
        #expect(paths == (0..<16).map { "/dev/gps\($0)" })
        let long = String(repeating: "a", count: 5000)
        #expect(try GPSDReport.decode(line: #"{"class":"DEVICE","path":"\#(long)","activated":1}"#, receivedAt: received) == .device(path: String(repeating: "a", count: 256), active: true))
    }

    @Test("Lines that are not JSON reports are refused", arguments: ["", "not json", "[1,2]", #"{"mode":3}"#, #"{"class":"TPV","mode":3"#])
    func refused(line: String) {
        #expect(throws: GPSDReportError.self) { try GPSDReport.decode(line: line, receivedAt: received) }
    }
}

@Suite("gpsd endpoint (--gpsd)")
struct GPSDEndpointTests {
    @Test("HOST, HOST:PORT and [IPV6]:PORT; the port defaults to 2947")
    func parses() {
        #expect(GPSDEndpoint(parsing: "localhost") == GPSDEndpoint(host: "localhost", port: 2947))
        #expect(GPSDEndpoint(parsing: "127.0.0.1:29470") == GPSDEndpoint(host: "127.0.0.1", port: 29470))
        #expect(GPSDEndpoint(parsing: "[::1]:3000") == GPSDEndpoint(host: "::1", port: 3000))
        #expect(GPSDEndpoint(parsing: "[::1]") == GPSDEndpoint(host: "::1", port: 2947))
        #expect(GPSDEndpoint(parsing: "::1") == GPSDEndpoint(host: "::1", port: 2947))
        #expect(GPSDEndpoint(parsing: "gps.example.org:2947")?.description == "gps.example.org:2947")
        #expect(GPSDEndpoint(host: "::1", port: 2947).description == "[::1]:2947")
    }

    @Test("Refuses what is not a host with a port 1-65535", arguments: ["", ":2947", "host:", "host:0", "host:65536", "host:x", "[::1", "[::1]x", "a b:1"])
    func refuses(text: String) {
        #expect(GPSDEndpoint(parsing: text) == nil)
    }
}
