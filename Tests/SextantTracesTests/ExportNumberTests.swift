import Foundation
import SextantTestSupport
import Testing

@testable import SextantTraces

/// The export formats' numbers, worked out in integers, are printf's `%.Nf` digits
/// (Foundation's String(format:) here, the writers' former way), with no `-0`.
@Suite("Export numbers")
struct ExportNumberTests {
    /// What the writers wrote before: String(format:), a lone minus sign of zero dropped.
    static func printf(_ value: Double, _ digits: Int) -> String {
        let text = String(format: "%.\(digits)f", value)
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(text.dropFirst()) }
        return text
    }

    @Test("Ties, values just beside a tie, negative zeros, tiny and large values: the same digits as printf")
    func edges() {
        let values: [Double] = [
            0, -0.0, 0.125, 0.375, -0.125, 2.5, 0.0005, 0.0015, -0.0005, 1.0005, 2.675, 1e-12, -1e-12, 0.000_000_000_5, 0.000_000_001_5,
            179.999_999_999_5, -179.999_999_999_5, 89.999_999_999_9, 359.995, 359.996, 1e15, -1e15, 4.5e15, 1e300, -1e300,
            .ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, 0.7, 1.45, 2.345, 123_456.789_5,
        ]
        for value in values {
            for digits in [0, 2, 3, 4, 9] {
                for v in [value, value.nextUp, value.nextDown] {
                    #expect(ExportNumber.fixed(v, digits) == Self.printf(v, digits), "\(v) to \(digits) digits")
                }
            }
        }
    }

    @Test("200,000 seeded values of every magnitude a trace holds, and as many of any size: the same digits as printf")
    func seeded() {
        var generator = SplitMix64(seed: 0x5EED_E4B0)
        for _ in 0..<200_000 {
            let digits = [2, 3, 4, 9].randomElement(using: &generator)!
            let magnitude = Double.random(in: -12...7, using: &generator)
            var value = pow(10, magnitude) * (Bool.random(using: &generator) ? 1 : -1)
            // Values on a decimal grid: many land on or next to a tie after scaling.
            if Bool.random(using: &generator) { value = (value * 1000).rounded() / 1000 + Double(Int.random(in: -1...1, using: &generator)) * 5e-4 }
            #expect(ExportNumber.fixed(value, digits) == Self.printf(value, digits), "\(value) to \(digits) digits")
            // And any finite double: huge ones go through printf itself.
            let any = generator.double()
            #expect(ExportNumber.fixed(any, digits) == Self.printf(any, digits), "\(any) to \(digits) digits")
        }
    }
}
