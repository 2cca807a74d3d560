import SextantProtocol

// The bytes of NMEA fields as values: characters, numbers, times of day, dates and
// degrees-and-minutes, read without Foundation and without copying.

enum NMEAUnits {
    /// A knot is one nautical mile (1852 m) an hour.
    static let metresPerSecondPerKnot = 1852.0 / 3600.0
    static let kilometresPerHourPerKnot = 1.852
}

enum NMEAByte {
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    static func isTagCharacter(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x5A) }

    /// The byte that two hex digits (either case) write, or nil. Arithmetic rather than
    /// a switch a digit: the checksum of every sentence is read with it.
    @inline(__always)
    static func hexPair(_ high: UInt8, _ low: UInt8) -> UInt8? {
        let h = hexDigit(high), l = hexDigit(low)
        guard h | l < 16 else { return nil }
        return h << 4 | l
    }

    /// 0–15 for a hex digit, 0xFF for any other byte (`| 0x20` makes `A`–`F` lower case
    /// and no other byte a lower-case `a`–`f`).
    @inline(__always)
    private static func hexDigit(_ b: UInt8) -> UInt8 {
        let digit = b &- 0x30
        if digit < 10 { return digit }
        let letter = (b | 0x20) &- 0x61
        return letter < 6 ? letter + 10 : 0xFF
    }
}

/// Number formats of NMEA fields, read straight from bytes.
enum NMEANumber {
    /// 10^0 … 10^22, each exact. Literal constants, so that the array is laid out when the
    /// program is built rather than made on first use behind a lock check each call.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `[-+]digits[.digits]`. Exact to the last bit for up to 15 significant digits (one
    /// correctly rounded division of two exact doubles); longer ones go to `Double(_:)`.
    /// A short whole number is read where it is needed, without a call: most of GSV's and
    /// GSA's fields are one (`083`, `46`).
    @inline(__always)
    static func decimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        if let whole = shortWholeNumber(bytes) { return Double(whole) }
        return anyDecimal(bytes)
    }

    /// The digits before the point, then those after it, each in a loop of its own (no
    /// state a byte). Past 15 digits, leading zeros counted, `Double(_:)` reads it: the
    /// same value, as both are exact or correctly rounded.
    private static func anyDecimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var i = bytes.startIndex
        let end = bytes.endIndex
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: Int64 = 0
        let wholeStart = i
        while i < end {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ Int64(digit)
            i += 1
        }
        let wholeDigits = i - wholeStart
        var fractionDigits = 0
        if i < end {
            guard bytes[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            let fractionStart = i
            while i < end {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { return nil }
                mantissa = mantissa &* 10 &+ Int64(digit)
                i += 1
            }
            fractionDigits = i - fractionStart
        }
        guard wholeDigits + fractionDigits > 0 else { return nil }
        // (The mantissa may have wrapped past 18 digits: it is not used then.)
        guard wholeDigits + fractionDigits <= 15 else { return slow(bytes) }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// One to four digits and nothing else, or nil: what `decimal` reads them as, without
    /// its general loop.
    @inline(__always)
    static func shortWholeNumber(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard bytes.count <= 4, !bytes.isEmpty else { return nil }
        var value = 0
        for b in bytes {
            let digit = b &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    private static func slow(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Unsigned or signed decimal digits.
    static func integer(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var i = bytes.startIndex
        var negative = false
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < bytes.endIndex, bytes.endIndex - i <= 9 else { return nil }
        var value = 0
        while i < bytes.endIndex {
            guard NMEAByte.isDigit(bytes[i]) else { return nil }
            value = value * 10 + Int(bytes[i] - 0x30)
            i += 1
        }
        return negative ? -value : value
    }

    /// `hhmmss[.s…]` as nanoseconds since midnight; a leap second (ss = 60) is allowed.
    static func timeOfDay(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> NMEATimeOfDay? {
        guard bytes.count >= 6 else { return nil }
        let s = bytes.startIndex
        for k in 0..<6 where !NMEAByte.isDigit(bytes[s + k]) { return nil }
        let hours = Int64(twoDigits(bytes, at: s)), minutes = Int64(twoDigits(bytes, at: s + 2)), seconds = Int64(twoDigits(bytes, at: s + 4))
        guard hours < 24, minutes < 60, seconds <= 60 else { return nil }
        var nanos: Int64 = 0
        if bytes.count > 6 {
            guard bytes[s + 6] == UInt8(ascii: "."), bytes.count > 7 else { return nil }
            var scale: Int64 = 100_000_000
            for k in 7..<bytes.count {
                let b = bytes[s + k]
                guard NMEAByte.isDigit(b) else { return nil }
                nanos += Int64(b - 0x30) * scale
                scale /= 10
            }
        }
        return ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000 + nanos
    }

    /// The number two digits at `i` write (both checked to be digits before).
    @inline(__always)
    private static func twoDigits(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, at i: Int) -> Int {
        Int(bytes[i] &- 0x30) &* 10 &+ Int(bytes[i + 1] &- 0x30)
    }

    /// `ddmmyy`, years 80–99 being 1980–1999 and 00–79 2000–2079 (GPS time began in 1980).
    static func ddmmyy(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> NMEADate? {
        guard bytes.count == 6, bytes.allSatisfy(NMEAByte.isDigit) else { return nil }
        let s = bytes.startIndex
        let day = twoDigits(bytes, at: s), month = twoDigits(bytes, at: s + 2), yy = twoDigits(bytes, at: s + 4)
        let year = yy >= 80 ? 1900 + yy : 2000 + yy
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day) else { return nil }
        return NMEADate(year: year, month: month, day: day)
    }

    /// `dddmm.mmmm` (degrees then minutes) as degrees. Minutes must be below 60: MTK
    /// receivers say `8960.000000` before their first fix, which is no place. Whole
    /// degrees are the digits before the last two of the integer part (none when a
    /// receiver drops leading zeros down to `07.5`), at most nine of them.
    ///
    /// One pass: the integer part as a number, split into degrees and whole minutes, and
    /// the minutes' digits as one mantissa, divided once, as `decimal` reads `mm.mmmm`.
    static func degreesMinutes(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var i = bytes.startIndex
        let end = bytes.endIndex
        var whole = 0
        while i < end {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { break }
            guard i - bytes.startIndex < 11 else { return nil }
            whole = whole * 10 + Int(digit)
            i += 1
        }
        guard i - bytes.startIndex >= 2 else { return nil }
        var minutesMantissa = Int64(whole % 100)
        var fractionDigits = 0
        if i < end {
            guard bytes[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            while i < end {
                let digit = bytes[i] &- 0x30
                guard digit < 10 else { return nil }
                // Past 13 digits the minutes could hold more than 15 significant ones.
                guard fractionDigits < 13 else { return slowDegreesMinutes(bytes) }
                minutesMantissa = minutesMantissa * 10 + Int64(digit)
                fractionDigits += 1
                i += 1
            }
        }
        let minutes = Double(minutesMantissa) / powersOfTen[fractionDigits]
        guard minutes < 60 else { return nil }
        return Double(whole / 100) + minutes / 60
    }

    /// `degreesMinutes` for minutes with more digits than a double holds exactly.
    private static func slowDegreesMinutes(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        guard let point = bytes.firstIndex(of: UInt8(ascii: ".")), let minutes = decimal(bytes[(point - 2)..<bytes.endIndex]), minutes < 60,
            let degrees = point - 2 == bytes.startIndex ? 0 : integer(bytes[bytes.startIndex..<(point - 2)])
        else { return nil }
        return Double(degrees) + minutes / 60
    }
}
