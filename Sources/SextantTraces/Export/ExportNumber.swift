#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers as the text formats write them: fixed decimals, never exponents, no `-0`.
///
/// The digits are printf's `%.*f` (the exact binary value rounded to `digits` decimals,
/// a tie to even), worked out in integers when that is exact, through vsnprintf when it
/// is not. A conversion writes about ten numbers a fix: vsnprintf alone (its argument
/// list built of existentials) took a third of the time of writing NMEA.
enum ExportNumber {
    /// Powers of ten that a Double holds exactly, up to the most digits a format writes.
    private static let scales: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard let units = scaledExactly(value, digits) else { return printed(value, digits) }
        // "-0.000" for a tiny negative value reads as a sign error to a person: printf
        // would write the sign, and it is dropped here as it was dropped from printf's.
        var text = String(units.magnitude)
        if digits > 0 {
            if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
        }
        return units < 0 ? "-" + text : text
    }

    /// Degrees to 1e-9 (0.1 mm), beyond any receiver.
    static func degrees(_ value: Double) -> String { fixed(value, 9) }

    /// `value` × 10^digits rounded to the nearest integer, as printf rounds it, when the
    /// product's distance to that integer tells the rounding for certain: the fused
    /// multiply-add gives it correctly rounded, so only a distance of (nearly) one half
    /// is in doubt. nil then, and for numbers too large for the integer to be exact.
    static func scaledExactly(_ value: Double, _ digits: Int) -> Int64? {
        guard digits >= 0, digits < scales.count, value.isFinite else { return nil }
        let scale = scales[digits]
        let product = value * scale
        guard abs(product) < 0x1p52 else { return nil }
        let nearest = product.rounded(.toNearestOrEven)
        let distance = abs((-nearest).addingProduct(value, scale))
        guard distance < 0.5 - 0x1p-20 else { return nil }
        return Int64(nearest)
    }

    /// printf's own digits, with the sign of a negative zero dropped.
    static func printed(_ value: Double, _ digits: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 352) { buffer in
            let count = withVaList([Int32(digits), value]) { arguments in
                buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
            }
            guard count > 0, Int(count) < buffer.count else { return value.description }
            var text = UnsafeBufferPointer(rebasing: buffer[0..<Int(count)])
            if text.first == UInt8(ascii: "-"), text.dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }) {
                text = UnsafeBufferPointer(rebasing: text.dropFirst())
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
