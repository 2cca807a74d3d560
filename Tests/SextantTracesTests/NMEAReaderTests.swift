import SextantCore
import SextantProtocol
import SextantTraces
import Testing

@Suite("NMEA logs as traces")
struct NMEAReaderTests {
    func read(_ lines: [String]) throws -> Trace { try NMEAReader.read(lines.joined(separator: "\n") + "\n", path: "t.nmea") }

    func fixes(_ trace: Trace) -> [LocationFix] {
        trace.samples.compactMap { if case .location(let f) = $0.value { return f } else { return nil } }
    }

    func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    let knot = 1852.0 / 3600.0

    @Test("One fix per cycle: GGA, GSA, RMC and VTG of one time merge; speed in m/s, hAcc = HDOP × 5 m, vAcc = VDOP × 5 m")
    func oneFixPerEpoch() throws {
        let trace = try read([
            nmea("$GPGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"),
            nmea("$GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45"),
            nmea("$GPRMC,120000.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,A"),
            nmea("$GPVTG,084.4,T,087.5,M,022.4,N,041.5,K,A"),
            nmea("$GPGGA,120001.00,4807.040,N,01131.010,E,1,08,1.1,545.0,M,46.9,M,,"),
        ])
        let f = fixes(trace)
        #expect(f.count == 2)
        #expect(trace.start == time("1994-03-23T12:00:00Z"))
        // The GSA came after the GGA: its HDOP (1.3) is the epoch's last.
        #expect(f[0].horizontalAccuracy == 1.3 * 5 && f[0].verticalAccuracy == 2.1 * 5)
        #expect(abs(f[0].speed! - 22.4 * knot) < 1e-12 && f[0].course == 84.4 && f[0].altitude == 545.4)
        #expect(f[1].time == time("1994-03-23T12:00:01Z") && trace.samples[1].offset == 1_000_000_000)
        #expect(f[1].horizontalAccuracy == 1.1 * 5 && f[1].verticalAccuracy == nil && f[1].speed == nil)
    }

    @Test("GST's 1-σ errors beat the DOPs: hAcc = √(σlat² + σlon²), vAcc = σalt")
    func gstAccuracy() throws {
        let trace = try read([
            nmea("$GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,D"),
            nmea("$GPGGA,120000.00,4807.038,N,01131.000,E,2,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GPGST,120000.00,0.006,0.023,0.020,273.6,0.3,0.4,0.7"),
        ])
        let f = try #require(fixes(trace).first)
        #expect(abs(f.horizontalAccuracy - 0.5) < 1e-12 && f.verticalAccuracy == 0.7)
    }

    @Test("Without DOP or GST, hAcc is Sextant's default 5 m")
    func defaultAccuracy() throws {
        let f = try #require(fixes(try read([nmea("$GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A")])).first)
        #expect(f.horizontalAccuracy == LocationFix.defaultHorizontalAccuracy && f.altitude == nil)
    }

    @Test("10 Hz: a fix every 0.1 s, offsets to the nanosecond")
    func tenHertz() throws {
        var lines: [String] = []
        for tenth in 0..<20 {
            let t = String(format: "1328%02d.%d0", 20 + tenth / 10, tenth % 10)
            lines.append(nmea("$GNGGA,\(t),4134.4982,N,08336.5906,W,4,12,0.6,180.0,M,-33.9,M,1.0,0000"))
            lines.append(nmea("$GNRMC,\(t),A,4134.4982,N,08336.5906,W,0.01,,180320,,,R"))
        }
        let trace = try read(lines)
        #expect(trace.samples.count == 20)
        #expect(trace.samples.map(\.offset) == (0..<20).map { Int64($0) * 100_000_000 })
        #expect(trace.start == time("2020-03-18T13:28:20Z"))
    }

    @Test("Midnight: time of day going back by a day with no new date is the next day")
    func midnight() throws {
        let trace = try read([
            nmea("$GPRMC,235959.00,A,4807.038,N,01131.000,E,0.0,0.0,311225,,,A"),
            nmea("$GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GPGGA,000001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ])
        #expect(fixes(trace).map(\.time) == [time("2025-12-31T23:59:59Z"), time("2026-01-01T00:00:00Z"), time("2026-01-01T00:00:01Z")])
    }

    @Test("Dates: a ZDA dates a GGA-only log, even when sent ahead of its cycle and across midnight")
    func zdaDates() throws {
        let trace = try read([
            nmea("$GPGGA,235958.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GPZDA,000000.00,01,01,2026,00,00"),
            nmea("$GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ])
        // The ZDA says 00:00:00 on 1 January: 23:59:58 and 23:59:59 were on 31 December.
        #expect(fixes(trace).map(\.time) == [time("2025-12-31T23:59:58Z"), time("2025-12-31T23:59:59Z"), time("2026-01-01T00:00:00Z")])
    }

    @Test("Dates: a `# Date:` comment for a log without RMC or ZDA, else 2000-01-01")
    func dateFallbacks() throws {
        let gga = nmea("$GPGGA,101010.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        #expect(try read(["# Date: 2019-3-14", gga]).start == time("2019-03-14T10:10:10Z"))
        #expect(try read(["# Name: x", gga]).start == time("2000-01-01T10:10:10Z"))
        // An RMC's date wins over the comment.
        #expect(try read(["# Date: 2019-03-14", nmea("$GPRMC,101010,A,4807.038,N,01131.000,E,0.0,0.0,150320,,,A")]).start == time("2020-03-15T10:10:10Z"))
    }

    @Test("Dates only from RMCs with a fix: MTK's 1980-01-05 before the fix is not used")
    func noDateBeforeFix() throws {
        let trace = try read([
            nmea("$GPRMC,235950.004,V,8960.000000,N,00000.000000,E,0.000,0.00,050180,,,N"),
            nmea("$GPRMC,081436.000,A,5212.982135,N,00653.101394,E,0.039,0.00,230808,,,A"),
        ])
        #expect(trace.start == time("2008-08-23T08:14:36Z"))
    }

    @Test("Losing the fix: one gps noFix at the first no-fix cycle, none again until the next fix; a log that starts without a fix says so at 0")
    func noFixTransitions() throws {
        func cycle(_ t: String, fix: Bool) -> String {
            nmea("$GPRMC,\(t),\(fix ? "A" : "V"),4807.038,N,01131.000,E,0.0,0.0,230394,,,\(fix ? "A" : "N")")
        }
        let trace = try read([
            cycle("115958", fix: false), cycle("115959", fix: false), cycle("120000", fix: true), cycle("120001", fix: true),
            cycle("120002", fix: false), cycle("120003", fix: false), cycle("120004", fix: true),
            "$GPRMC,,V,,,,,,,,,,N*53",
        ])
        let s = time("1994-03-23T12:00:00Z")
        #expect(trace.start == s)
        let kinds: [String] = trace.samples.map {
            switch $0.value {
            case .location: return "fix@\($0.offset / 1_000_000_000)"
            case .gps(let g): return "\(g.rawValue)@\($0.offset / 1_000_000_000)"
            default: return "?"
            }
        }
        #expect(kinds == ["noFix@0", "fix@0", "fix@1", "noFix@2", "fix@4", "noFix@4"])
    }

    @Test("A log whose time goes back is recordings put end to end: the later one follows 1 s after, at its own pace")
    func recordingsEndToEnd() throws {
        let trace = try read([
            nmea("$GPRMC,152508.00,A,5547.82150,N,02334.14092,E,0.0,,091209,,,A"),
            nmea("$GPRMC,152508.50,A,5547.82156,N,02334.14086,E,0.0,,091209,,,A"),
            nmea("$GPRMC,143306.00,A,5546.83315,N,02334.72613,E,30.0,221.0,091209,,,A"),
            nmea("$GPRMC,143306.50,A,5546.82983,N,02334.72123,E,30.0,221.0,091209,,,A"),
        ])
        #expect(trace.samples.map(\.offset) == [0, 500_000_000, 1_500_000_000, 2_000_000_000])
    }

    @Test("A fix more than a day after the previous one starts another recording too: the replay does not wait days")
    func jumpForward() throws {
        let trace = try read([
            nmea("$GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,010120,,,A"),
            nmea("$GPRMC,120001,A,4807.038,N,01131.000,E,0.0,0.0,010120,,,A"),
            nmea("$GPRMC,080000,A,4807.038,N,01131.000,E,0.0,0.0,050120,,,A"),
            nmea("$GPRMC,080002,A,4807.038,N,01131.000,E,0.0,0.0,050120,,,A"),
        ])
        #expect(trace.samples.map(\.offset) == [0, 1_000_000_000, 2_000_000_000, 4_000_000_000])
    }

    @Test("Bad lines are skipped and counted by reason, never fatal")
    func badLines() throws {
        let good = nmea("$GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A")
        let trace = try read([
            "# comment", "", ",1.7,-30.40,M,-13.9,M,,*7D",
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48",
            "$GPGGA,030130" + nmea("$GPGLL,2638.1728,N,08011.3893,W,120001.000,A,A"),
            nmea("$GPRMC,120002,A,,,,,0.0,0.0,230394,,,A"),
            nmea("$PGRME,1.7,M,2.4,M,3.0,M"),
            good,
        ])
        #expect(trace.skipped == ["not NMEA": 1, "bad checksum": 1, "spliced sentence": 1, "malformed sentence": 1])
        // The GLL after the splice is read.
        #expect(fixes(trace).count == 2)
    }

    @Test("A file without a single NMEA sentence is an error at its first line that is not blank or a comment")
    func notNMEA() {
        #expect(throws: TraceError(path: "t.nmea", line: 3, reason: "not an NMEA 0183 log: no sentence ($…*hh) in it")) {
            try self.read(["# hello", "", "hello", "world"])
        }
        #expect(throws: TraceError.self) { try self.read(["$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48"]) }
    }

    @Test("A log of no-fix cycles only is a trace of one gps noFix")
    func neverAFix() throws {
        let trace = try read([nmea("$GPGGA,000416.984,0000.0000,N,00000.0000,E,0,00,50.0,0.0,M,0.0,M,0.0,0000")])
        #expect(trace.samples == [TraceSample(offset: 0, value: .gps(.noFix))])
        #expect(trace.start == time("2000-01-01T00:04:16.984Z"))
    }

    @Test("A GLL without time or status (an old Garmin's) joins the cycle it comes in; before any time it cannot be placed")
    func untimedFix() throws {
        let trace = try read([
            "$GPGLL,4916.45,N,12311.12,W",
            nmea("$GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A"),
            "$GPGLL,4916.45,N,12311.12,W",
        ])
        let f = fixes(trace)
        #expect(f.count == 1)
        #expect(abs(f[0].latitude - (49 + 16.45 / 60)) < 1e-12 && f[0].time == time("1994-03-23T12:00:00Z"))
    }

    @Test("TraceLoader reads .nmea and .log files as NMEA")
    func loaderDispatch() throws {
        #expect(TraceFormat.detect(path: "x.nmea", contents: "") == .nmea)
        #expect(TraceFormat.detect(path: "x.LOG", contents: "") == .nmea)
        let trace = try TraceLoader.parse(nmea("$GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A"), path: "x.nmea", format: .nmea)
        #expect(trace.samples.count == 1)
    }
}
