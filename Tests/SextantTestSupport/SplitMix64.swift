import SextantCore

/// Sebastiano Vigna's SplitMix64, the seeded generator of every property test: small, and
/// the same sequence for the same seed on every machine, so that a failing case is found
/// again from its seed. The GNSS profile's own generator (SextantCore), under the name the
/// tests know it by.
public typealias SplitMix64 = SeededGenerator
