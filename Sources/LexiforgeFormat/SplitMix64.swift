import Foundation

/// A small, fast, seedable generator (Steele et al.'s SplitMix64): the same seed gives the same
/// numbers on every platform, which `SystemRandomNumberGenerator` does not promise. Shared by every
/// seeded stage (Baum-Welch initialisation, synthetic swipes) and the seeded tests.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.finalize(state)
    }
    /// SplitMix64's output function: a well-spread 64-bit value of `z` (also a good hash mixer).
    @inlinable
    public static func finalize(_ z: UInt64) -> UInt64 {
        var z = z
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A uniform number in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// A standard normal deviate (Box–Muller).
    public mutating func normal() -> Double {
        let u = Double.random(in: Double.ulpOfOne ..< 1, using: &self), v = Double.random(in: 0 ..< 1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
