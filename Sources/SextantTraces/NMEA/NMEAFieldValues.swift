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

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
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

    private static func anyDecimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var i = bytes.startIndex
        var negative = false
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: Int64 = 0
        var significantDigits = 0, fractionDigits = 0
        var sawDigit = false, sawPoint = false
        while i < bytes.endIndex {
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
                continue
            }
            guard NMEAByte.isDigit(b) else { return nil }
            sawDigit = true
            if sawPoint { fractionDigits += 1 }
            // Leading zeros are not significant.
            if significantDigits == 0 && b == UInt8(ascii: "0") { continue }
            significantDigits += 1
            mantissa = mantissa * 10 + Int64(b - 0x30)
            if significantDigits > 15 { return slow(bytes) }
        }
        guard sawDigit else { return nil }
        // A whole number (most of GSV's and GSA's) needs no division.
        guard fractionDigits > 0 else { return negative ? -Double(mantissa) : Double(mantissa) }
        guard fractionDigits < powersOfTen.count else { return slow(bytes) }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// One to four digits and nothing else, or nil: what `decimal` reads them as, without
    /// its general loop.
    @inline(__always)
    private static func shortWholeNumber(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
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
        func two(_ k: Int) -> Int64 { Int64(bytes[s + k] - 0x30) * 10 + Int64(bytes[s + k + 1] - 0x30) }
        let hours = two(0), minutes = two(2), seconds = two(4)
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

    /// `ddmmyy`, years 80–99 being 1980–1999 and 00–79 2000–2079 (GPS time began in 1980).
    static func ddmmyy(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> NMEADate? {
        guard bytes.count == 6, bytes.allSatisfy(NMEAByte.isDigit) else { return nil }
        let s = bytes.startIndex
        func two(_ k: Int) -> Int { Int(bytes[s + k] - 0x30) * 10 + Int(bytes[s + k + 1] - 0x30) }
        let day = two(0), month = two(2), yy = two(4)
        let year = yy >= 80 ? 1900 + yy : 2000 + yy
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day) else { return nil }
        return NMEADate(year: year, month: month, day: day)
    }

    /// `dddmm.mmmm` (degrees then minutes) as degrees. Minutes must be below 60: MTK
    /// receivers say `8960.000000` before their first fix, which is no place.
    static func degreesMinutes(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        let point = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        // Whole degrees are the digits before the last two of the integer part (none
        // when a receiver drops leading zeros down to `07.5`).
        guard point - bytes.startIndex >= 2, NMEAByte.isDigit(bytes[point - 2]), NMEAByte.isDigit(bytes[point - 1]),
            let minutes = decimal(bytes[(point - 2)..<bytes.endIndex]), minutes < 60
        else { return nil }
        let degreeDigits = bytes[bytes.startIndex..<(point - 2)]
        guard degreeDigits.allSatisfy(NMEAByte.isDigit), let degrees = degreeDigits.isEmpty ? 0 : integer(degreeDigits) else { return nil }
        return Double(degrees) + minutes / 60
    }
}
