import SextantCore
import SextantProtocol
import SextantTraces
import Testing

/// Numbers and times from a trace that once trapped the daemon (an `Int64` conversion or
/// an overflow): each is now an error naming the line and the field.
@Suite("Trace numbers and times out of range are errors, not traps")
struct TraceBoundsTests {
    let header = #"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#

    func jsonlError(_ lines: [String]) -> TraceError? {
        do {
            _ = try SextantTraceFormat.read(lines.joined(separator: "\n"), path: "b.jsonl")
            return nil
        } catch {
            return error
        }
    }

    func gpxError(_ body: String, speed: Double = GPXReader.defaultSpeed) -> TraceError? {
        let text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n" + body + "\n</gpx>\n"
        do {
            _ = try GPXReader.read(text, path: "b.gpx", speed: speed)
            return nil
        } catch {
            return error
        }
    }

    @Test("t of 1e10 s and more (and just over the 1e9 s bound) is an error at its line", arguments: ["1e10", "9.3e9", "1e300", "1000000000.001"])
    func hugeOffset(t: String) {
        let error = jsonlError([header, #"{"t":"# + t + #","hinge":{"angle":1}}"#])
        #expect(error?.line == 2)
        #expect(error?.reason.contains("\"t\" must be at most 1000000000 s") == true, "\(String(describing: error))")
    }

    @Test("t of exactly 1e9 s is read")
    func largestOffset() throws {
        let trace = try SextantTraceFormat.read([header, #"{"t":1e9,"hinge":{"angle":1}}"#].joined(separator: "\n"), path: "b.jsonl")
        #expect(trace.durationNanoseconds == Trace.maximumOffset)
        #expect(TraceSummary(trace).end.rfc3339 == "2057-11-07T09:46:40.000Z")
    }

    @Test("A header start in year 9999, before 1677 or after 2262 is an error naming start", arguments: [
        "9999-12-31T23:59:59Z", "1600-01-01T00:00:00Z", "1677-09-21T00:00:00Z", "2262-04-12T00:00:00Z", "2263-01-01T00:00:00Z",
    ])
    func startOutOfRange(start: String) {
        let error = jsonlError([#"{"sextant":"trace","version":1,"start":""# + start + #""}"#, #"{"t":0,"hinge":{"angle":1}}"#])
        #expect(error?.line == 1)
        #expect(error?.reason.contains("header: \"start\" is outside the times Sextant can hold") == true, "\(String(describing: error))")
    }

    @Test("A start near 2262 with a t that goes past the last instant is an error at the sample")
    func startPlusOffsetPastTheEnd() {
        let error = jsonlError([
            #"{"sextant":"trace","version":1,"start":"2262-04-11T00:00:00Z"}"#, #"{"t":0,"hinge":{"angle":1}}"#,
            #"{"t":172800,"location":{"lat":1,"lon":1}}"#,
        ])
        #expect(error?.line == 3)
        #expect(error?.reason.contains("after 2262-04-11T23:47:16.854Z") == true, "\(String(describing: error))")
    }

    @Test("Accelerations of ±1e308 (and over 1000 m/s²) are an error naming accel", arguments: [
        #"{"x":1e308,"y":0,"z":0}"#, #"{"x":0,"y":-1e308,"z":0}"#, #"{"x":-1000.5,"y":0,"z":0}"#, #"{"x":0,"y":0,"z":1001}"#,
    ])
    func hugeAcceleration(body: String) {
        let error = jsonlError([header, #"{"t":0,"accel":"# + body + "}"])
        #expect(error?.line == 2)
        #expect(error?.reason.hasPrefix("accel: ") == true, "\(String(describing: error))")
    }

    @Test("Every field of a location is checked, by the one validator, and named", arguments: [
        (#"{"lat":1,"lon":1,"vAcc":-1}"#, "location.vAcc"), (#"{"lat":1,"lon":1,"hAcc":1e300}"#, "location.hAcc"),
        (#"{"lat":1,"lon":1,"alt":1e300}"#, "location.alt"), (#"{"lat":1,"lon":1,"speed":1e300}"#, "location.speed"),
        (#"{"lat":1,"lon":1,"course":-0.5}"#, "location.course"), (#"{"lat":1,"lon":1e300}"#, "location.lon"),
    ])
    func locationFields(body: String, field: String) {
        let error = jsonlError([header, #"{"t":0,"location":"# + body + "}"])
        #expect(error?.line == 2)
        #expect(error?.reason.hasPrefix(field + " must be within") == true, "\(String(describing: error))")
    }

    @Test("A GPX <time> in year 3000 is an error at its line, saying it is out of range")
    func gpxTimeInYear3000() {
        let error = gpxError("<trk><trkseg>\n<trkpt lat=\"1\" lon=\"1\">\n<time>3000-01-01T00:00:00Z</time></trkpt>\n</trkseg></trk>")
        #expect(error?.line == 5)
        #expect(error?.reason.contains("outside the times Sextant can hold") == true, "\(String(describing: error))")
    }

    @Test("GPX times spanning 1700 to 2260 are an error at the point too far from the first")
    func gpxTimesSpanningCenturies() {
        let error = gpxError("""
            <trk><trkseg>
            <trkpt lat="1" lon="1"><time>1700-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="1"><time>1750-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="1"><time>2260-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk>
            """)
        #expect(error?.line == 5)
        #expect(error?.reason.contains("more than 1000000000 s after the first point") == true, "\(String(describing: error))")
    }

    @Test("A GPX route of 700 antipodal legs walked at 1.4 m/s is an error at the first point too late")
    func gpxAntipodalRoute() {
        let points = (0..<701).map { i in i % 2 == 0 ? "<rtept lat=\"0\" lon=\"0\"/>" : "<rtept lat=\"0\" lon=\"180\"/>" }
        let error = gpxError("<rte>\n" + points.joined(separator: "\n") + "\n</rte>")
        // Each leg is 20,015 km, 14.3e6 s at 1.4 m/s: the 70th leg passes 1e9 s.
        #expect(error?.line == 4 + 70)
        #expect(error?.reason.contains("walked at 1.4 m/s") == true, "\(String(describing: error))")
    }

    @Test("A GPX route walked at 1e-300 m/s is an error at its second point")
    func gpxTinySpeed() {
        let error = gpxError("<rte>\n<rtept lat=\"0\" lon=\"0\"/>\n<rtept lat=\"0\" lon=\"0.001\"/>\n</rte>", speed: 1e-300)
        #expect(error?.line == 5)
        #expect(error?.reason.contains("walked at 1e-300 m/s") == true, "\(String(describing: error))")
    }

    @Test("A GPX point with an elevation of 1e300 is an error naming alt")
    func gpxHugeElevation() {
        let error = gpxError("<wpt lat=\"1\" lon=\"1\"><ele>1e300</ele></wpt>")
        #expect(error?.line == 3)
        #expect(error?.reason.contains("<wpt>: alt must be within") == true, "\(String(describing: error))")
    }

    @Test("An NMEA fix keeps its position and drops an altitude or accuracy out of range")
    func nmeaValuesOutOfRange() throws {
        func nmea(_ body: String) -> String {
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$" + body + "*" + String(sum, radix: 16, uppercase: true).leftPadded(2) + "\n"
        }
        let text = nmea("GPGGA,120000,4807.038,N,01131.000,E,1,08,99999999999999999999,99999999999999999999,M,0,M,,")
            + nmea("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A")
        let trace = try NMEAReader.read(text, path: "b.nmea")
        guard case .location(let fix) = trace.samples.first?.value else {
            Issue.record("no fix: \(trace)")
            return
        }
        #expect(fix.altitude == nil)
        #expect(fix.horizontalAccuracy == LocationFix.defaultHorizontalAccuracy)
        #expect(fix.problem == nil)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
