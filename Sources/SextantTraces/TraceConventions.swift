import SextantProtocol

/// Choices the NMEA and GPX readers share, so that both formats read alike.
enum TraceConventions {
    /// A typical 1-σ user equivalent range error of an unaided single-frequency GNSS
    /// receiver, in metres: what one unit of dilution of precision is worth. HDOP × this
    /// is a 68 % horizontal radius, which is what `hAcc` means in Sextant. (gpsd's `eph`
    /// is a 95 % figure and uses 19 m.)
    static let userEquivalentRangeError = 5.0

    /// The accuracy a DOP stands for; nil for a missing or meaningless (≤ 0) DOP.
    static func accuracy(dilution: Double?) -> Double? {
        guard let dilution, dilution > 0, dilution.isFinite else { return nil }
        return dilution * userEquivalentRangeError
    }

    /// The day of a trace whose file gives no date at all (an NMEA log of GGA and GLL
    /// only without a `# Date:` comment, a GPX route without times).
    static let fallbackDate = NMEADate(year: 2000, month: 1, day: 1)

    /// Midnight (UTC) of `fallbackDate`.
    static var fallbackStart: Timestamp { Timestamp(nanoseconds: fallbackDate.daysSinceEpoch * 86_400_000_000_000) }
}
