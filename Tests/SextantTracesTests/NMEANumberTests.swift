import Foundation
@testable import SextantTraces
import Testing

/// `NMEANumber.decimal`, the reader of every number field, against the standard library's
/// `Double(_:)` on the grammar it accepts: `[-+]digits[.digits]`, at least one digit.
@Suite("NMEA decimal numbers")
struct NMEANumberTests {
    /// Whether `text` is in the grammar `decimal` reads.
    static func isDecimal(_ text: String) -> Bool {
        var body = Substring(text)
        if let first = body.first, first == "-" || first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return false }
        return parts.contains { !$0.isEmpty }
    }

    static func decimal(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { NMEANumber.decimal($0[...]) }
    }

    /// Every text of one to `length` characters of `alphabet`, the empty one first.
    static func texts(of alphabet: String, upTo length: Int) -> [String] {
        var texts = [""], last = [""]
        for _ in 0..<length {
            last = last.flatMap { prefix in alphabet.map { prefix + String($0) } }
            texts += last
        }
        return texts
    }

    /// Compared by their bits: -0 is not 0.
    static func expectSame(_ got: Double?, _ expected: Double?, reading text: String) {
        #expect(got?.bitPattern == expected?.bitPattern, "\(text): \(String(describing: got)), not \(String(describing: expected))")
    }

    static func expectRead(_ text: String) {
        expectSame(decimal(text), isDecimal(text) ? Double(text) : nil, reading: text)
    }

    @Test("Every text of up to four characters of digits, point, signs, their neighbours in ASCII and a stray letter reads as Double(_:) reads it, or not at all")
    func shortTexts() {
        for text in Self.texts(of: "0123456789.+-x /:", upTo: 4) { Self.expectRead(text) }
    }

    @Test("Longer numbers, up to the 15 significant digits read exactly and beyond, read as Double(_:) reads them")
    func longerTexts() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 {
            let digits = Int.random(in: 1...22, using: &generator)
            var text = String((0..<digits).map { _ in "0123456789".randomElement(using: &generator)! })
            if Bool.random(using: &generator) { text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 0...digits, using: &generator))) }
            if Bool.random(using: &generator) { text = (Bool.random(using: &generator) ? "-" : "+") + text }
            Self.expectRead(text)
        }
    }

    /// `ddmm.mmmm` read the long way: the grammar checked on the text, the minutes by
    /// `Double(_:)`.
    static func referenceDegreesMinutes(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = parts[0]
        guard integerPart.count >= 2, integerPart.count <= 11, integerPart.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        if parts.count == 2, !parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
        let degreeDigits = integerPart.dropLast(2)
        guard let minutes = Double(text.dropFirst(degreeDigits.count)), minutes < 60 else { return nil }
        return Double(degreeDigits.isEmpty ? 0 : Int(degreeDigits)!) + minutes / 60
    }

    static func expectDegreesMinutes(_ text: String) {
        var bytes = text
        expectSame(bytes.withUTF8 { NMEANumber.degreesMinutes($0[...]) }, referenceDegreesMinutes(text), reading: text)
    }

    @Test("ddmm.mmmm: every text of up to five characters of digits, point and a sign, and receivers' long ones, read as the minutes' Double(_:) over 60")
    func degreesMinutes() {
        for text in Self.texts(of: "0569.-x", upTo: 5) { Self.expectDegreesMinutes(text) }
        for text in ["4807.038", "01131.000", "8960.000000", "00000.000000", "5960.0", "5959.9999999999999", "17959.99999999999999", "123456789012.5", "12345678901.5", "07.5", "4807.", "4807.03.8", "+4807.038"] {
            Self.expectDegreesMinutes(text)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 {
            let whole = String((0..<Int.random(in: 2...12, using: &generator)).map { _ in "0123456789".randomElement(using: &generator)! })
            let fraction = String((0..<Int.random(in: 0...18, using: &generator)).map { _ in "0123456789".randomElement(using: &generator)! })
            Self.expectDegreesMinutes(Bool.random(using: &generator) ? whole + "." + fraction : whole)
        }
    }

    @Test("A checksum's two hex digits: every pair of bytes reads as UInt8(_:radix: 16) reads two hex digits, or not at all")
    func hexPairs() {
        let hexDigits = Set("0123456789abcdefABCDEF".utf8)
        for high in UInt8.min...UInt8.max {
            for low in UInt8.min...UInt8.max {
                let expected = hexDigits.contains(high) && hexDigits.contains(low) ? UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) : nil
                #expect(NMEAByte.hexPair(high, low) == expected, "\(high) \(low)")
            }
        }
    }
}
