import SextantProtocol

/// The range checks a TPV's values pass before they become a location, the same as a trace's
/// location fields (sextant-trace(5)): gpsd is a network peer, and what it says is input.
///
/// An optional field out of range (a negative speed, a track of 99999) is dropped and noted;
/// a value the fix cannot do without (its accuracy, its time) makes the whole fix unusable.
/// Kept in one place so that it can give way to SextantCore's shared `LocationFix`
/// validator once that covers every field.
struct TPVFieldCheck {
    /// The years a TPV `time` may fall in. GPS time starts on 1980-01-06; Sextant's
    /// timestamps (nanoseconds in an `Int64`) end in April 2262, so a later time could not
    /// be held at all.
    static let plausibleYears = 1980...2200

    /// Larger than half the Earth's circumference, an error radius says nothing of where
    /// the receiver is.
    static let maximumHorizontalAccuracy = 20_040_000.0

    /// What was dropped, one note per field (`speed -3 is negative`).
    var dropped: [String]

    /// A TPV `time`, or nil when it is not RFC 3339 or falls outside ``plausibleYears``.
    /// The year is checked before the text is converted, so that no instant outside the
    /// timestamp's range is ever computed.
    static func time(rfc3339 text: String) -> Timestamp? {
        let digits = text.utf8.prefix(4)
        guard digits.count == 4, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let year = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        guard plausibleYears.contains(year) else { return nil }
        return Timestamp(rfc3339: text)
    }

    /// Why a horizontal accuracy cannot be passed on, or nil when it can.
    static func accuracyProblem(_ metres: Double) -> String? {
        guard metres.isFinite, metres >= 0, metres <= maximumHorizontalAccuracy else {
            return "horizontal error \(metres) m is not within 0...\(Int(maximumHorizontalAccuracy)) m"
        }
        return nil
    }

    /// `speed`: metres a second over ground, never negative.
    mutating func speed(_ value: Double?) -> Double? {
        keep(value, "speed", where: { $0 >= 0 }, else: "is negative")
    }

    /// `track`: degrees from true north, within 0..<360.
    mutating func course(_ value: Double?) -> Double? {
        keep(value, "track", where: { (0..<360).contains($0) }, else: "is not within 0..<360")
    }

    /// `epv`: metres, never negative.
    mutating func verticalAccuracy(_ value: Double?) -> Double? {
        keep(value, "epv", where: { $0 >= 0 }, else: "is negative")
    }

    private mutating func keep(_ value: Double?, _ field: String, where valid: (Double) -> Bool, else problem: String) -> Double? {
        guard let value else { return nil }
        guard valid(value) else {
            dropped.append("\(field) \(value) \(problem)")
            return nil
        }
        return value
    }
}
