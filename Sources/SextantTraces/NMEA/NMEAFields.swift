import SextantProtocol

/// The fields of one sentence, as byte ranges of its line. Field 0 is the tag (`GPRMC`).
struct NMEAFields {
    let base: UnsafeBufferPointer<UInt8>
    /// Where each field ends (a comma, the `*`, the end), after where the first starts.
    let bounds: UnsafeBufferPointer<Int>

    /// Number of fields, the tag included.
    var count: Int { bounds.count - 1 }
    /// Number of data fields after the tag.
    var dataCount: Int { bounds.count - 2 }

    func isEmpty(_ n: Int) -> Bool { n >= count || bounds[n] + 1 == bounds[n + 1] }

    /// The single letter of field `n`, nil when empty.
    func letter(_ n: Int) -> UInt8? { isEmpty(n) ? nil : base[bounds[n] + 1] }

    func bytes(_ n: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
        n < count ? base[(bounds[n] + 1)..<bounds[n + 1]] : base[0..<0]
    }

    /// A field that may be empty: `.some(nil)` when empty, nil when present but unreadable.
    func optionalNumber(_ n: Int) -> Double?? {
        if isEmpty(n) { return .some(nil) }
        guard let value = NMEANumber.decimal(bytes(n)) else { return nil }
        return .some(value)
    }

    func optionalInteger(_ n: Int) -> Int?? {
        if isEmpty(n) { return .some(nil) }
        guard let value = NMEANumber.integer(bytes(n)) else { return nil }
        return .some(value)
    }

    func optionalTime(_ n: Int) -> NMEATimeOfDay?? {
        if isEmpty(n) { return .some(nil) }
        guard let value = NMEANumber.timeOfDay(bytes(n)) else { return nil }
        return .some(value)
    }

    /// Latitude and longitude in the four fields from `n` (`ddmm.mmmm,N,dddmm.mmmm,E`):
    /// `.some(nil)` when all four are empty, nil when they cannot be read.
    func optionalPosition(_ n: Int) -> NMEAPosition?? {
        if isEmpty(n) && isEmpty(n + 1) && isEmpty(n + 2) && isEmpty(n + 3) { return .some(nil) }
        guard let lat = NMEANumber.degreesMinutes(bytes(n)), let lon = NMEANumber.degreesMinutes(bytes(n + 2)) else { return nil }
        let latitude: Double, longitude: Double
        switch letter(n + 1) {
        case UInt8(ascii: "N"): latitude = lat
        case UInt8(ascii: "S"): latitude = -lat
        default: return nil
        }
        switch letter(n + 3) {
        case UInt8(ascii: "E"): longitude = lon
        case UInt8(ascii: "W"): longitude = -lon
        default: return nil
        }
        guard latitude.magnitude <= 90, longitude.magnitude <= 180 else { return nil }
        return .some(NMEAPosition(latitude: latitude, longitude: longitude))
    }

    /// The sentence these fields make, by its tag; when they are malformed, `malformed` is
    /// set and the sentence is a placeholder. Not an optional: unwrapping one copies the
    /// whole sentence just written, and reading it back so soon stalls the core (6 % of a
    /// log's decoding). Without `naming`, the talker and an `.other` type are left empty;
    /// without `satellites`, GSV's and GSA's lists of satellites.
    func decode(names: inout NMEATagNames, naming: Bool, satellites: Bool, malformed: inout Bool) -> NMEASentence {
        let tag = bytes(0)
        func name(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String { naming ? names.name(bytes) : "" }
        // `$P…` is proprietary (PGRME, PMTK, PSRF, PASHR…), in whatever form its maker
        // chose (SiRF: `$PSRFTXTVersion GSW3…`); standard tags are a two-letter talker
        // and a three-letter type.
        if tag.first == UInt8(ascii: "P") { return NMEASentence(talker: "", body: .other(name(tag))) }
        guard tag.count >= 3, tag.allSatisfy(NMEAByte.isTagCharacter) else { return Self.malformed(&malformed) }
        if tag.count != 5 { return NMEASentence(talker: "", body: .other(name(tag))) }
        let type = tag.suffix(3)
        let body: NMEASentence.Body?
        // The three letters of the type as one number, compared at once.
        switch UInt32(type[type.startIndex]) << 16 | UInt32(type[type.startIndex + 1]) << 8 | UInt32(type[type.startIndex + 2]) {
        case Self.code("RMC"): body = rmc().map { .rmc($0) }
        case Self.code("GGA"): body = gga().map { .gga($0) }
        case Self.code("GLL"): body = gll().map { .gll($0) }
        case Self.code("GNS"): body = gns().map { .gns($0) }
        case Self.code("GSA"): body = gsa(system: NMEATalkerSystem(tag[tag.startIndex], tag[tag.startIndex + 1]), keeping: satellites).map { .gsa($0) }
        case Self.code("GSV"): body = gsv(system: NMEATalkerSystem(tag[tag.startIndex], tag[tag.startIndex + 1]), keeping: satellites).map { .gsv($0) }
        case Self.code("VTG"): body = vtg().map { .vtg($0) }
        case Self.code("ZDA"): body = zda().map { .zda($0) }
        case Self.code("GST"): body = gst().map { .gst($0) }
        case Self.code("HDT"): body = heading(0...360).map { .heading(NMEAHeading(magnetic: nil, trueHeading: $0)) }
        case Self.code("HDM"): body = heading(0...360).map { .heading(NMEAHeading(magnetic: $0, trueHeading: nil)) }
        case Self.code("HDG"): body = hdg().map { .heading($0) }
        default: body = .other(name(type))
        }
        guard let body else { return Self.malformed(&malformed) }
        return NMEASentence(talker: name(tag.prefix(2)), body: body)
    }

    /// What `decode` answers for fields that make no sentence.
    private static func malformed(_ flag: inout Bool) -> NMEASentence {
        flag = true
        return NMEASentence(talker: "", body: .other(""))
    }

    /// A three-letter type as `decode` packs it.
    private static func code(_ type: StaticString) -> UInt32 {
        let b = type.utf8Start
        return UInt32(b[0]) << 16 | UInt32(b[1]) << 8 | UInt32(b[2])
    }

    // MARK: - Sentences (field numbers as NMEA 0183 4.11 counts them, the tag being 0)

    // A sentence that reports no fix is kept whatever its position fields hold: receivers
    // fill them with leftovers or garbage then (MTK `8960.000000`, a TN-200 `36000.0000`).
    // One that reports a fix must have a readable time and position, or it is malformed.

    /// `RMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,x.x,x.x,ddmmyy,x.x,a,m,s`
    private func rmc() -> RMC? {
        guard dataCount >= 9, let time = optionalTime(1) else { return nil }
        let status = letter(2)
        let isValid = (status == UInt8(ascii: "A") || status == UInt8(ascii: "D"))
            && NMEAModeIndicator(letter(12)) != .invalid && letter(13) != UInt8(ascii: "V")
        guard isValid else {
            return RMC(time: time, isValid: false, position: nil, speedKnots: nil, course: nil, date: NMEANumber.ddmmyy(bytes(9)))
        }
        guard let time, let position = optionalPosition(3), let position, let speed = optionalNumber(7), let course = optionalNumber(8) else {
            return nil
        }
        // A date that cannot be read (`2208-1`: a Telit after the 2019 week rollover) is
        // left out; the rest of the sentence is good.
        return RMC(time: time, isValid: true, position: position, speedKnots: speed, course: course, date: NMEANumber.ddmmyy(bytes(9)))
    }

    /// `GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,h.h,alt,M,sep,M,age,station`
    private func gga() -> GGA? {
        guard dataCount >= 9, let time = optionalTime(1), let quality = optionalInteger(6), let quality,
            let satellites = optionalInteger(7)
        else { return nil }
        let noFix = GGA(time: time, position: nil, quality: quality, satellitesUsed: satellites, hdop: nil, altitude: nil)
        guard noFix.isFix else { return noFix }
        guard time != nil, let position = optionalPosition(2), let position, let hdop = optionalNumber(8), let altitude = optionalNumber(9) else {
            return nil
        }
        return GGA(time: time, position: position, quality: quality, satellitesUsed: satellites, hdop: hdop, altitude: altitude)
    }

    /// `GLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A,m`
    private func gll() -> GLL? {
        guard dataCount >= 4, let time = optionalTime(5) else { return nil }
        let status = letter(6)
        let isValid = (status == nil || status == UInt8(ascii: "A")) && NMEAModeIndicator(letter(7)) != .invalid
        guard isValid else { return GLL(time: time, position: nil, isValid: false) }
        guard let position = optionalPosition(1), let position else { return nil }
        return GLL(time: time, position: position, isValid: true)
    }

    /// `GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,mm…,nn,h.h,alt,sep,age,station,s`
    private func gns() -> GNS? {
        guard dataCount >= 9, let time = optionalTime(1), let satellites = optionalInteger(7) else { return nil }
        // One mode letter per constellation (GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC):
        // a fix when any of them has one.
        let anyValid = bytes(6).contains { NMEAModeIndicator($0) == .valid }
        let navigationStatus = letter(13)
        let isValid = anyValid && navigationStatus != UInt8(ascii: "U") && navigationStatus != UInt8(ascii: "V")
        guard isValid else { return GNS(time: time, position: nil, isValid: false, satellitesUsed: satellites, hdop: nil, altitude: nil) }
        guard time != nil, let position = optionalPosition(2), let position, let hdop = optionalNumber(8), let altitude = optionalNumber(9) else {
            return nil
        }
        return GNS(time: time, position: position, isValid: true, satellitesUsed: satellites, hdop: hdop, altitude: altitude)
    }

    /// `GSA,A,3,sv×12,pdop,hdop,vdop[,system]`
    private func gsa(system: NMEATalkerSystem, keeping: Bool) -> GSA? {
        guard dataCount >= 17, let mode = optionalInteger(2), let pdop = optionalNumber(15), let hdop = optionalNumber(16),
            let vdop = optionalNumber(17), let used = gsaUsed(system: system, keeping: keeping)
        else { return nil }
        return GSA(fixMode: mode, pdop: pdop, hdop: hdop, vdop: vdop, used: used)
    }

    /// `VTG,t.t,T,m.m,M,k.k,N,s.s,K,m`, or the NMEA 1.5 form `VTG,t.t,m.m,k.k,s.s`.
    private func vtg() -> VTG? {
        guard dataCount >= 4 else { return nil }
        let modern = letter(2) == UInt8(ascii: "T") || dataCount >= 8
        let courseField = 1, knotsField = modern ? 5 : 3, kmhField = modern ? 7 : 4
        guard let course = optionalNumber(courseField), let knots = optionalNumber(knotsField), let kmh = optionalNumber(kmhField) else {
            return nil
        }
        let speedKnots = knots ?? kmh.map { $0 / NMEAUnits.kilometresPerHourPerKnot }
        let isValid = NMEAModeIndicator(modern ? letter(9) : nil) != .invalid
        return VTG(course: course, speedKnots: speedKnots, isValid: isValid)
    }

    /// `ZDA,hhmmss.ss,dd,mm,yyyy,zh,zm`
    private func zda() -> ZDA? {
        guard dataCount >= 4, let time = optionalTime(1), let day = optionalInteger(2), let month = optionalInteger(3),
            let year = optionalInteger(4)
        else { return nil }
        var date: NMEADate?
        if let day, let month, let year {
            // GPS time began in 1980; beyond 2099 is a garbled year.
            guard (1980...2099).contains(year), (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day) else {
                return nil
            }
            date = NMEADate(year: year, month: month, day: day)
        }
        return ZDA(time: time, date: date)
    }

    /// Field 1 as a heading (`HDT,x.x,T`, `HDM,x.x,M`): `.some(nil)` when empty, nil
    /// when not a number within `range`. 360 is north.
    private func heading(_ range: ClosedRange<Double>) -> Double?? {
        guard dataCount >= 1, let value = optionalNumber(1) else { return nil }
        guard let value else { return .some(nil) }
        guard range.contains(value) else { return nil }
        return .some(NMEAHeading.wrapped(value))
    }

    /// Fields `n` and `n + 1` as a signed angle of at most 180° (`d.d,E`: east is
    /// positive): `.some(nil)` when empty, nil when unreadable or without its direction.
    private func signedAngle(_ n: Int) -> Double?? {
        guard let value = optionalNumber(n) else { return nil }
        guard let value else { return .some(nil) }
        guard (0...180).contains(value) else { return nil }
        switch letter(n + 1) {
        case UInt8(ascii: "E"): return .some(value)
        case UInt8(ascii: "W"): return .some(-value)
        default: return nil
        }
    }

    /// `HDG,x.x,d.d,a,v.v,a`: magnetic sensor heading, deviation, variation.
    private func hdg() -> NMEAHeading? {
        guard dataCount >= 5, let sensor = heading(0...360), let deviation = signedAngle(2), let variation = signedAngle(4) else { return nil }
        return NMEAHeading(sensor: sensor, deviation: deviation, variation: variation)
    }

    /// `GST,hhmmss.ss,rms,major,minor,orientation,σlat,σlon,σalt`
    private func gst() -> GST? {
        guard dataCount >= 8, let time = optionalTime(1), let lat = optionalNumber(6), let lon = optionalNumber(7),
            let alt = optionalNumber(8)
        else { return nil }
        return GST(time: time, latitudeError: lat, longitudeError: lon, altitudeError: alt)
    }
}
