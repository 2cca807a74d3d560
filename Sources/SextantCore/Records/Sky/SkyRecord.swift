import SextantProtocol

extension RecordKind {
    /// The satellites in view and used (RULES N8), as recorded (GnssLogger `Status`, NMEA
    /// `GSV`/`GSA`, gpsd's `SKY`): `{"sky":{"satellites":[…],"inView":N,"used":N}}`, heard by
    /// apps as `satellites` (`SatellitesService` consumes it).
    public static let sky = RecordKind(name: "sky", of: SkyView.self)
}

extension SkyView: RecordValue {
    public static var recordKind: RecordKind { .sky }

    public var recordBody: JSONValue { jsonValue }

    public static func read(recordBody: JSONValue) -> Result<SkyView, RecordProblem> {
        read(recordBody).mapError { RecordProblem($0.description) }
    }

    /// A satellite a word (``SatelliteWord``).
    public var spoolWords: [UInt64] { satellites.map(SatelliteWord.pack) }

    public init(spoolWords: ArraySlice<UInt64>) { self.init(satellites: spoolWords.map(SatelliteWord.unpack)) }
}

extension SampleValue {
    /// A sky recorded by a source.
    public static func sky(_ sky: SkyView) -> SampleValue { .record(SampleRecord(sky)) }

    /// The sky, when this is one.
    public var sky: SkyView? {
        guard case .record(let record) = self else { return nil }
        return record.value(as: SkyView.self)
    }
}

/// One satellite in one word: constellation (bits 0–2), svid (3–10), elevation in tenths
/// of a degree plus 900 (11–21) with bit 22 saying it is there, azimuth in tenths (23–34)
/// with bit 35, C/N0 in tenths of a dB-Hz (36–45), used (46). Tenths are what gpsd and
/// GnssLogger's own figures carry that matters.
enum SatelliteWord {
    static func pack(_ s: SatelliteInView) -> UInt64 {
        var word = UInt64(s.constellation.rawValue) | UInt64(s.svid & 0xFF) << 3
        if let el = s.elevation { word |= UInt64((el * 10).rounded() + 900) << 11 | 1 << 22 }
        if let az = s.azimuth { word |= UInt64(min(3599, (az * 10).rounded())) << 23 | 1 << 35 }
        word |= UInt64(min(1023, (s.cn0 * 10).rounded())) << 36
        if s.used { word |= 1 << 46 }
        return word
    }

    static func unpack(_ w: UInt64) -> SatelliteInView {
        SatelliteInView(
            constellation: Constellation(rawValue: Int(w & 7)) ?? .gps, svid: Int(w >> 3 & 0xFF),
            elevation: w & 1 << 22 != 0 ? (Double(w >> 11 & 0x7FF) - 900) / 10 : nil,
            azimuth: w & 1 << 35 != 0 ? Double(w >> 23 & 0xFFF) / 10 : nil,
            cn0: Double(w >> 36 & 0x3FF) / 10, used: w & 1 << 46 != 0)
    }
}
