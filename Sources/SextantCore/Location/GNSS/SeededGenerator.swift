#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sebastiano Vigna's SplitMix64: the GNSS profile's own generator (RULES N5), small and the
/// same sequence for the same seed on every machine, so that a profile's fixes are a
/// function of its seed. (The tests' generator lives in the test support, which sources
/// cannot import.)
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in (0, 1): never 0, so its logarithm is finite.
    public mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992 }

    /// A uniform double in `range`.
    public mutating func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// A standard normal deviate (Box–Muller).
    public mutating func gaussian() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform()) }

    /// Whether an event of `rate` a second starts within `seconds` (a Poisson process).
    public mutating func happens(rate: Double, within seconds: Double) -> Bool {
        rate > 0 && uniform() < 1 - exp(-rate * seconds)
    }
}
