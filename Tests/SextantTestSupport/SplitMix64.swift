import Foundation

/// Sebastiano Vigna's SplitMix64, the seeded generator of every property test: small, and
/// the same sequence for the same seed on every machine, so that a failing case is found
/// again from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in (0, 1).
    public mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992 }

    /// A standard normal deviate (Box–Muller).
    public mutating func gaussian() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform()) }
}
