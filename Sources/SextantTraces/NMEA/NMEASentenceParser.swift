import SextantProtocol

/// Why a line of an NMEA log was skipped. The raw values are the keys of `Trace.skipped`.
public enum NMEALineProblem: String, Error, Sendable, CaseIterable {
    /// The `*hh` checksum does not match the sentence, or is not two hex digits.
    case badChecksum = "bad checksum"
    /// The line holds no sentence at all (no `$` or `!`): garbage, a half line.
    case notNMEA = "not NMEA"
    /// The start of a sentence that another sentence's `$` cut short (a receiver or a
    /// serial link dropped bytes): the fragment is skipped, the sentence after it is read.
    case spliced = "spliced sentence"
    /// The checksum is right (or absent) but a field Sextant needs is unreadable: a bad
    /// time, a latitude beyond 90°, too few fields, a valid status without a position.
    case malformed = "malformed sentence"
}

/// Turns one NMEA 0183 sentence (`$GPRMC,…*hh`) into an `NMEASentence`.
///
/// Checksums: a `*hh` suffix must match the XOR of the bytes between `$` and `*`
/// (either case of hex digit). A sentence without `*` is accepted unchecked, as gpsd
/// accepts it; several receivers (MTK, Ashtech `$PASHR`) send some that way.
///
/// Works on the line's UTF-8 bytes without building strings for the fields, nor any
/// array: the checksum and the field bounds come from one pass over the bytes, into a
/// buffer on the stack. A log of tens of megabytes decodes at the speed of a scan.
public struct NMEASentenceParser: Sendable {
    private var names = NMEATagNames()
    /// Whether sentences carry their talker and the type of an `.other` one. A reader
    /// that uses neither (`NMEAReader`) turns it off and spares a lookup a sentence.
    private let namesSentences: Bool
    /// Whether GSV sentences carry their satellites and GSA ones those in use. A reader
    /// whose consumer never looks into a sky (`trace info` counts sky samples) turns it off:
    /// the fields are still checked, a bad one still makes the sentence malformed, but no
    /// satellite is kept, so GSV and GSA cost no allocation.
    private let decodesSatellites: Bool

    public init() {
        namesSentences = true
        decodesSatellites = true
    }

    /// A parser whose sentences have an empty talker, and `.other("")` for every type
    /// Sextant does not decode: the same decoding, for a reader that reads neither.
    /// Without `decodingSatellites`, GSV's `satellites` and GSA's `used` are empty.
    init(namingSentences: Bool, decodingSatellites: Bool = true) {
        namesSentences = namingSentences
        decodesSatellites = decodingSatellites
    }

    /// Parses one sentence given as text (tests, tools).
    public static func parse(_ sentence: String) -> Result<NMEASentence, NMEALineProblem> {
        var parser = NMEASentenceParser()
        var text = sentence
        return text.withUTF8 { parser.parse($0[...]) }
    }

    /// Parses one sentence: its bytes start at `$` or `!` and hold no line break.
    public mutating func parse(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Result<NMEASentence, NMEALineProblem> {
        var problem = NMEALineProblem.notNMEA
        guard let sentence = parse(line, problem: &problem) else { return .failure(problem) }
        return .success(sentence)
    }

    /// `parse` without a `Result`: the sentence, or nil and `problem` set. (A `Result` of a
    /// sentence is destroyed through the standard library's generic value witness.)
    mutating func parse(_ line: Slice<UnsafeBufferPointer<UInt8>>, problem: inout NMEALineProblem) -> NMEASentence? {
        var next = line.endIndex
        var kept = KeptSentence()
        let parsed = parse(line.base, from: line.startIndex, to: line.endIndex, endingAtStartMarks: false, next: &next, problem: &problem, into: &kept, line: 0)
        return parsed ? kept.sentence : nil
    }

    /// The reader's path: the sentence that starts at `start` in a line ending at `upper`
    /// goes to `sink` (with `line`, for the sink), and `next` says where the next one starts
    /// (`upper` when none does): a line may hold several starts (bytes lost on a serial
    /// link, as gpsd's packet lexer sees them). A `$` or `!` before any `*` cuts the sentence
    /// short: a spliced fragment, skipped. The marks are looked for in the same pass over the
    /// bytes as the commas and the checksum. False, and `problem` set, when nothing went to
    /// the sink. The sentence is handed over where it is made, not returned: a sentence
    /// returned is copied whole at each call it goes back through, and read back as it was
    /// just written, which stalls the core (4 % of a log's decoding).
    mutating func parseNext<Sink: NMEASentenceSink>(
        _ base: UnsafeBufferPointer<UInt8>, from start: Int, to upper: Int, next: inout Int, problem: inout NMEALineProblem,
        into sink: inout Sink, line: Int
    ) -> Bool {
        parse(base, from: start, to: upper, endingAtStartMarks: true, next: &next, problem: &problem, into: &sink, line: line)
    }

    private mutating func parse<Sink: NMEASentenceSink>(
        _ base: UnsafeBufferPointer<UInt8>, from start: Int, to upper: Int, endingAtStartMarks: Bool, next: inout Int,
        problem: inout NMEALineProblem, into sink: inout Sink, line: Int
    ) -> Bool {
        next = upper
        guard start < upper, let bytes = base.baseAddress, bytes[start] == UInt8(ascii: "$") || bytes[start] == UInt8(ascii: "!") else {
            problem = .notNMEA
            return false
        }
        // A field ends at a comma, the `*` or the end: at most one more than the bytes.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: upper - start + 1) { bounds in
            // bounds[n] is the byte before field n (the start mark for the tag, field 0).
            bounds[0] = start
            var count = 1
            var scan = FieldScan(bytes: bytes, from: start + 1, to: upper, endingAtStartMarks: endingAtStartMarks)
            let (sum, stop) = scan.run(into: bounds, count: &count)
            var end = upper
            switch stop {
            case .startMark(let mark):
                problem = .spliced
                next = mark
                return false
            case .end:
                break
            case .star(let star):
                if endingAtStartMarks { next = Self.nextStart(after: star, bytes, upper) }
                end = next
                while end > star, NMEAByte.isSpace(bytes[end - 1]) { end -= 1 }
                guard Self.checksum(bytes, star: star, end: end, matches: sum) else {
                    problem = .badChecksum
                    return false
                }
                end = star
            }
            if stop == .end { while end > start, NMEAByte.isSpace(bytes[end - 1]) { end -= 1 } }
            bounds[count] = end
            let fields = NMEAFields(base: base, bounds: UnsafeBufferPointer(rebasing: bounds[...count]))
            guard let sentence = fields.decode(names: &names, naming: namesSentences, satellites: decodesSatellites) else {
                problem = .malformed  // (`sentence == nil` would compare through generic witnesses)
                return false
            }
            sink.take(sentence, line: line)
            return true
        }
    }

    /// Where the sentence after the one whose `*` is at `star` starts (`upper` when none does).
    /// Most sentences end their line with `*hh`: two hex digits after it, nothing to look for.
    @inline(__always)
    private static func nextStart(after star: Int, _ bytes: UnsafePointer<UInt8>, _ upper: Int) -> Int {
        if upper - star == 3, NMEAByte.hexPair(bytes[star + 1], bytes[star + 2]) != nil { return upper }
        return NMEAByteScan.nextSentenceStart(bytes, from: star + 1, to: upper).index
    }

    /// Whether the `*hh` at `star` is the last thing before `end` and says `sum`.
    @inline(__always)
    private static func checksum(_ bytes: UnsafePointer<UInt8>, star: Int, end: Int, matches sum: UInt8) -> Bool {
        guard end - star == 3, let written = NMEAByte.hexPair(bytes[star + 1], bytes[star + 2]) else { return false }
        return written == sum
    }
}

/// What a parser hands its sentences to (`NMEASentenceParser.parseNext`).
protocol NMEASentenceSink {
    mutating func take(_ sentence: borrowing NMEASentence, line: Int)
}

/// Keeps the last sentence it is handed: `parse`'s own sink.
struct KeptSentence: NMEASentenceSink {
    var sentence: NMEASentence?

    mutating func take(_ sentence: borrowing NMEASentence, line: Int) { self.sentence = copy sentence }
}

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

    /// The sentence these fields make, by its tag; nil when malformed. Without `naming`,
    /// the talker and an `.other` type are left empty; without `satellites`, GSV's and
    /// GSA's lists of satellites.
    func decode(names: inout NMEATagNames, naming: Bool, satellites: Bool) -> NMEASentence? {
        let tag = bytes(0)
        func name(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String { naming ? names.name(bytes) : "" }
        // `$P…` is proprietary (PGRME, PMTK, PSRF, PASHR…), in whatever form its maker
        // chose (SiRF: `$PSRFTXTVersion GSW3…`); standard tags are a two-letter talker
        // and a three-letter type.
        if tag.first == UInt8(ascii: "P") { return NMEASentence(talker: "", body: .other(name(tag))) }
        guard tag.count >= 3, tag.allSatisfy(NMEAByte.isTagCharacter) else { return nil }
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
        guard let body else { return nil }
        return NMEASentence(talker: name(tag.prefix(2)), body: body)
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
