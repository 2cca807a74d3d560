import Foundation
import SextantCore
import SextantProtocol

/// One accelerometer sample of a generated stream.
public struct TimedAcceleration: Sendable {
    public var time: Timestamp
    public var acceleration: Acceleration
}

/// A hand holding the device leaned back `lean` degrees and turning it about the screen's
/// normal: the orientation angle (0 portrait, 90 landscapeLeft, -90 landscapeRight) eases
/// from `from` to `to` with a half-cosine profile over `duration`, starting at `start`.
public struct HandTurn: Sendable {
    public var from: Double
    public var to: Double
    public var lean: Double
    public var start: Int64
    public var duration: Int64

    public init(from: Double, to: Double, lean: Double = 20, start: Int64, duration: Int64) {
        self.from = from
        self.to = to
        self.lean = lean
        self.start = start
        self.duration = duration
    }

    /// The first instant at the new resting gravity.
    public var end: Int64 { start + duration }

    public func angle(at time: Int64) -> Double {
        let progress = min(1, max(0, Double(time - start) / Double(duration)))
        return from + (to - from) * (1 - cos(.pi * progress)) / 2
    }

    public func gravity(at time: Int64) -> Acceleration {
        Gravity.reaction(tilt: lean, angle: angle(at: time))
    }
}

public enum Gravity {
    /// The reaction to gravity in the device frame for a device tilted `tilt` degrees
    /// (screen leaning back) at orientation angle `angle` degrees.
    public static func reaction(tilt: Double, angle: Double) -> Acceleration {
        let t = tilt * .pi / 180, a = angle * .pi / 180
        let g = Acceleration.standardGravity
        return Acceleration(x: g * cos(t) * sin(a), y: g * cos(t) * cos(a), z: g * sin(t))
    }
}

/// Streams built from motions, sampled at a fixed period with Gaussian noise per axis.
public enum Workload {
    /// 2026-03-01T08:00:00Z in nanoseconds.
    public static let epoch: Int64 = 1_772_352_000_000_000_000

    public static func samples(
        of gravity: (Int64) -> Acceleration, from first: Int64, through last: Int64, period: Int64,
        noise: Double, seed: UInt64
    ) -> [TimedAcceleration] {
        var random = SplitMix64(seed: seed)
        return stride(from: first, through: last, by: Int(period)).map { time in
            let clean = gravity(time)
            return TimedAcceleration(
                time: Timestamp(nanoseconds: time),
                acceleration: Acceleration(
                    x: clean.x + noise * random.gaussian(), y: clean.y + noise * random.gaussian(),
                    z: clean.z + noise * random.gaussian()))
        }
    }

    /// A minute of use at 100 Hz with σ = 0.15 m/s²: every 5 s the device is turned
    /// (0.4 s) to the next of portrait, landscapeLeft, portrait, landscapeRight, and every
    /// fourth rest is spent lying face up.
    public static func minuteOfUse(seed: UInt64) -> [TimedAcceleration] {
        let second: Int64 = 1_000_000_000
        let angles: [Double] = [0, 90, 0, -90]
        let turn: Int64 = 400_000_000
        func gravity(at time: Int64) -> Acceleration {
            let offset = time - epoch
            let segment = Int(offset / (5 * second))
            let inSegment = offset % (5 * second)
            let from = angles[(segment + 3) % 4], to = angles[segment % 4]
            if segment % 4 == 3, inSegment > 2 * second, inSegment < 4 * second {
                return Gravity.reaction(tilt: 88, angle: to)
            }
            let start = epoch + Int64(segment) * 5 * second
            return HandTurn(from: segment == 0 ? to : from, to: to, start: start, duration: turn).gravity(at: time)
        }
        return samples(of: gravity, from: epoch, through: epoch + 60 * second - 10_000_000, period: 10_000_000, noise: 0.15, seed: seed)
    }
}

/// Sebastiano Vigna's SplitMix64: the GNSS profile's seeded generator (SextantCore), the
/// same on every platform.
public typealias SplitMix64 = SeededGenerator
