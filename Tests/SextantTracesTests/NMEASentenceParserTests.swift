import SextantTraces
import Testing

/// Appends the checksum: the XOR of the bytes between `$` and `*`, in two hex digits.
func nmea(_ body: String) -> String {
    precondition(body.hasPrefix("$") || body.hasPrefix("!"))
    let sum = body.utf8.dropFirst().reduce(UInt8(0), ^)
    let hex = String(sum, radix: 16, uppercase: true)
    return body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

/// A time of day, by hand.
func hms(_ hours: Int64, _ minutes: Int64, _ seconds: Int64, nanoseconds: Int64 = 0) -> NMEATimeOfDay {
    ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000 + nanoseconds
}

@Suite("NMEA sentence parser")
struct NMEASentenceParserTests {
    func parse(_ line: String) -> NMEASentence? { try? NMEASentenceParser.parse(line).get() }

    func problem(_ line: String) -> NMEALineProblem? {
        if case .failure(let p) = NMEASentenceParser.parse(line) { return p }
        return nil
    }

    @Test("The textbook GGA: 48° 07.038' N, 11° 31.000' E at 12:35:19, quality 1, 8 satellites, HDOP 0.9, 545.4 m")
    func textbookGGA() throws {
        // The checksum 47 is the published one, not computed here.
        let sentence = try #require(parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"))
        #expect(sentence.talker == "GP")
        guard case .gga(let gga) = sentence.body else { Issue.record("not a GGA"); return }
        #expect(gga.time == hms(12, 35, 19))
        let position = try #require(gga.position)
        #expect(abs(position.latitude - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(position.longitude - (11 + 31.0 / 60)) < 1e-12)
        #expect(gga.quality == 1 && gga.satellitesUsed == 8 && gga.hdop == 0.9 && gga.altitude == 545.4)
        #expect(gga.isFix)
    }

    @Test("Checksums: a wrong one, a short one, a non-hex one are bad; lower-case hex is fine; none at all is accepted, as gpsd does")
    func checksums() {
        let good = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"
        #expect(parse(good) != nil)
        #expect(problem("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48") == .badChecksum)
        #expect(problem("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4") == .badChecksum)
        #expect(problem("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*4G") == .badChecksum)
        #expect(problem("$GPGGA,123519,4807.039,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") == .badChecksum)
        #expect(parse("$GPGGA,193221.00,2037.72792,N,08704.08478,W,1,04,1.7,-30.40,M,-13.9,M,,*7d") != nil)
        #expect(parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") != nil)
        #expect(parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r") != nil)
        #expect(problem("GPGGA,123519") == .notNMEA)
    }

    @Test("Any talker reads alike: GP, GN, GL, GA, GB, BD, QZ, IN, EC, GI", arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "QZ", "IN", "EC", "GI"])
    func talkers(talker: String) throws {
        let sentence = try #require(parse(nmea("$\(talker)RMC,225446.33,A,4916.45,N,12311.12,W,000.5,054.7,191194,020.3,E,A")))
        #expect(sentence.talker == talker)
        guard case .rmc(let rmc) = sentence.body else { Issue.record("not an RMC"); return }
        #expect(rmc.isValid)
        #expect(rmc.date == NMEADate(year: 1994, month: 11, day: 19))
        #expect(rmc.time == hms(22, 54, 46, nanoseconds: 330_000_000))
        #expect(rmc.speedKnots == 0.5 && rmc.course == 54.7)
    }

    @Test("Hemispheres: S and W are negative")
    func hemispheres() throws {
        for (ns, ew, lat, lon) in [("N", "E", 1.0, 1.0), ("S", "E", -1.0, 1.0), ("N", "W", 1.0, -1.0), ("S", "W", -1.0, -1.0)] {
            let sentence = try #require(parse(nmea("$GPGLL,3030.000,\(ns),04515.000,\(ew),120000.00,A,A")))
            guard case .gll(let gll) = sentence.body, let p = gll.position else { Issue.record("no GLL position"); continue }
            #expect(p.latitude == lat * 30.5 && p.longitude == lon * 45.25)
        }
        #expect(problem(nmea("$GPGLL,3030.000,X,04515.000,E,120000.00,A,A")) == .malformed)
    }

    @Test("Empty fields: no-fix sentences read as no fix, with no time when they have none")
    func emptyFields() throws {
        guard case .rmc(let rmc)? = parse("$GPRMC,,V,,,,,,,,,,N*53")?.body else { Issue.record("RMC"); return }
        #expect(!rmc.isValid && rmc.time == nil && rmc.position == nil && rmc.date == nil)
        guard case .gga(let gga)? = parse("$GPGGA,,,,,,0,,,,M,,M,,*66")?.body else { Issue.record("GGA"); return }
        #expect(!gga.isFix && gga.time == nil && gga.quality == 0)
        guard case .vtg(let vtg)? = parse("$GPVTG,,T,,M,,N,,K,N*2C")?.body else { Issue.record("VTG"); return }
        #expect(!vtg.isValid && vtg.speedKnots == nil)
        guard case .gsa(let gsa)? = parse("$GPGSA,A,1,,,,,,,,,,,,,,,*1E")?.body else { Issue.record("GSA"); return }
        #expect(gsa.fixMode == 1 && gsa.hdop == nil)
        // A valid RMC without a position is not a fix: it is skipped.
        #expect(problem(nmea("$GPRMC,120000,A,,,,,0.0,0.0,010120,,,A")) == .malformed)
        // A GGA without a quality says nothing.
        #expect(problem(nmea("$GPGGA,120000,4807.038,N,01131.000,E,,08,0.9,545.4,M,46.9,M,,")) == .malformed)
    }

    @Test("A no-fix sentence keeps whatever position fields it has unread (MTK's 8960.000000); a fix with one is malformed")
    func garbagePositions() {
        guard case .gga(let gga)? = parse("$GPGGA,235946.005,8960.000000,N,00000.000000,E,0,0,,137.000,M,13.000,M,,*49")?.body else {
            Issue.record("GGA")
            return
        }
        #expect(!gga.isFix && gga.position == nil)
        #expect(problem(nmea("$GPGGA,235946.005,8960.000000,N,00000.000000,E,1,5,,137.000,M,13.000,M,,")) == .malformed)
        #expect(problem(nmea("$GPGGA,235946.005,9100.000000,N,00000.000000,E,1,5,,137.000,M,13.000,M,,")) == .malformed)
        #expect(problem(nmea("$GPGGA,245946.005,4807.038,N,00000.000000,E,1,5,,137.000,M,13.000,M,,")) == .malformed)
    }

    @Test("GGA: qualities 1–6 with 3 or more satellites are fixes; 0, 7 (manual), 8 (simulator) and fewer satellites are not")
    func ggaQualities() {
        for (quality, satellites, fix) in [(1, "08", true), (2, "08", true), (4, "12", true), (6, "05", true), (0, "08", false), (7, "08", false), (8, "08", false), (1, "00", false), (1, "02", false), (1, "", true)] {
            guard case .gga(let gga)? = parse(nmea("$GPGGA,120000,4807.038,N,01131.000,E,\(quality),\(satellites),0.9,545.4,M,46.9,M,,"))?.body else {
                Issue.record("GGA \(quality)")
                continue
            }
            #expect(gga.isFix == fix, "quality \(quality), satellites \(satellites)")
        }
    }

    @Test("RMC: status A or D with a mode that is not N, S or M is a fix; V is not")
    func rmcStatus() {
        for (status, mode, valid) in [("A", "A", true), ("D", "D", true), ("A", "", true), ("A", "E", true), ("A", "N", false), ("A", "S", false), ("V", "A", false), ("V", "N", false)] {
            guard case .rmc(let rmc)? = parse(nmea("$GPRMC,120000,\(status),4807.038,N,01131.000,E,1.0,90.0,010120,,,\(mode)"))?.body else {
                Issue.record("RMC \(status)/\(mode)")
                continue
            }
            #expect(rmc.isValid == valid, "\(status)/\(mode)")
        }
    }

    @Test("Dates: ddmmyy with years 80–99 in the 1900s; an unreadable date (Telit's 2208-1) leaves the rest of the RMC good")
    func dates() throws {
        func date(_ ddmmyy: String) -> NMEADate?? {
            guard case .rmc(let rmc)? = parse(nmea("$GPRMC,000231.099,A,4829.0005,N,00022.0015,E,0.15,212.28,\(ddmmyy),,,A"))?.body else { return nil }
            return .some(rmc.date)
        }
        #expect(date("050180") == .some(NMEADate(year: 1980, month: 1, day: 5)))
        #expect(date("220899") == .some(NMEADate(year: 1999, month: 8, day: 22)))
        #expect(date("290224") == .some(NMEADate(year: 2024, month: 2, day: 29)))
        #expect(date("2208-1") == .some(nil))
        #expect(date("290223") == .some(nil))
        #expect(date("") == .some(nil))
    }

    @Test("ZDA: time and a four-digit-year date")
    func zda() throws {
        guard case .zda(let zda)? = parse("$GPZDA,193223.00,23,12,2007,00,00*69")?.body else { Issue.record("ZDA"); return }
        #expect(zda.date == NMEADate(year: 2007, month: 12, day: 23))
        #expect(zda.time == hms(19, 32, 23))
        guard case .zda(let empty)? = parse("$GPZDA,,,,,00,00*48")?.body else { Issue.record("empty ZDA"); return }
        #expect(empty.date == nil && empty.time == nil)
        #expect(problem(nmea("$GPZDA,193223.00,31,02,2007,00,00")) == .malformed)
    }

    @Test("Fractions of a second to the nanosecond: 10 Hz and 20 Hz stamps")
    func fractions() {
        for (text, nanos) in [("132820.6", 600_000_000), ("132820.60", 600_000_000), ("132820.05", 50_000_000), ("132820.123456789", 123_456_789)] {
            guard case .gll(let gll)? = parse(nmea("$GPGLL,4807.038,N,01131.000,E,\(text),A,A"))?.body else {
                Issue.record("\(text)")
                continue
            }
            #expect(gll.time == hms(13, 28, 20, nanoseconds: Int64(nanos)), "\(text)")
        }
    }

    @Test("VTG in both forms; GNS with one mode letter per constellation; GST's 1-σ errors")
    func otherSentences() throws {
        guard case .vtg(let vtg)? = parse(nmea("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A"))?.body else { Issue.record("VTG"); return }
        #expect(vtg.course == 54.7 && vtg.speedKnots == 5.5 && vtg.isValid)
        guard case .vtg(let old)? = parse(nmea("$GPVTG,054.7,034.4,005.5,010.2"))?.body else { Issue.record("old VTG"); return }
        #expect(old.course == 54.7 && old.speedKnots == 5.5 && old.isValid)
        guard case .vtg(let kmh)? = parse(nmea("$GPVTG,054.7,T,,M,,N,018.52,K,A"))?.body else { Issue.record("km/h VTG"); return }
        #expect(abs((kmh.speedKnots ?? 0) - 10) < 1e-12)

        guard case .gns(let gns)? = parse(nmea("$GNGNS,074155.799,3114.877,N,12128.6414,E,NA,07,1.5,20.1,8.4,,"))?.body else { Issue.record("GNS"); return }
        #expect(gns.isValid && gns.altitude == 20.1 && gns.hdop == 1.5)
        guard case .gns(let none)? = parse(nmea("$GNGNS,074150.799,,,,,NNNN,00,,,,,"))?.body else { Issue.record("GNS N"); return }
        #expect(!none.isValid)

        guard case .gst(let gst)? = parse(nmea("$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031"))?.body else { Issue.record("GST"); return }
        #expect(gst.latitudeError == 0.023 && gst.longitudeError == 0.020 && gst.altitudeError == 0.031)
    }

    @Test("Proprietary, unknown and AIS sentences are read but not used; GSV is read (N8)")
    func others() {
        #expect(parse("$PGRME,1.7,M,2.4,M,3.0,M*2D")?.body == .other("PGRME"))
        #expect(parse("$PSRFTXTVersion GSW3.2.2_3.1.00.12-SDK003P1.01a *78")?.body == .other("PSRFTXTVersion GSW3.2.2_3.1.00.12-SDK003P1.01a "))
        #expect(parse(nmea("$SDDBT,7.7,f,2.3,M,1.3,F"))?.body == .other("DBT"))
        guard case .gsv(let gsv)? = parse(nmea("$GPGSV,3,1,11,08,75,303,44,07,66,172,51,11,51,055,36,28,39,325,36"))?.body else {
            Issue.record("GSV")
            return
        }
        #expect(gsv.count == 3 && gsv.number == 1 && gsv.inView == 11 && gsv.satellites.map(\.id.number) == [8, 7, 11, 28])
        #expect(parse(nmea("!AIVDM,1,1,,B,177KQJ5000G?tO`K>RA1wUbN0TKH,0"))?.body == .other("VDM"))
    }
}
