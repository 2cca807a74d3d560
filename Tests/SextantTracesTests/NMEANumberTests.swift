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

    static func expectRead(_ text: String) {
        let expected = isDecimal(text) ? Double(text) : nil
        let got = decimal(text)
        // Compared by their bits: -0 is not 0.
        #expect(got?.bitPattern == expected?.bitPattern, "\(text): \(String(describing: got)), not \(String(describing: expected))")
    }

    @Test("Every text of up to four characters of digits, point, signs, their neighbours in ASCII and a stray letter reads as Double(_:) reads it, or not at all")
    func shortTexts() {
        let alphabet = Array("0123456789.+-x /:").map(String.init)
        var texts = [""]
        var last = [""]
        for _ in 1...4 {
            last = last.flatMap { prefix in alphabet.map { prefix + $0 } }
            texts += last
        }
        for text in texts { Self.expectRead(text) }
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
}
