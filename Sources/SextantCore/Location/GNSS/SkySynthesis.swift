#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// What a GNSS environment does to the sky (RULES N8): how high a satellite must be to be
/// seen, how much its signal is weakened, and whether buildings line a street.
public struct SkyConditions: Sendable, Equatable {
    /// Degrees above the horizon below which nothing is seen (across the street, in a canyon).
    public var elevationMask: Double
    /// In a street canyon, the mask along the street's axis (else `elevationMask` all round).
    public var streetMask: Double?
    /// dB taken off every signal (foliage, walls, a roof).
    public var attenuation: Double

    // The numbers of RULES N8, cited by the tests.
    public static let openSky = SkyConditions(elevationMask: 5, streetMask: nil, attenuation: 0)
    public static let urban = SkyConditions(elevationMask: 40, streetMask: 15, attenuation: 5)
    public static let forest = SkyConditions(elevationMask: 10, streetMask: nil, attenuation: 8)
    public static let indoor = SkyConditions(elevationMask: 45, streetMask: nil, attenuation: 26)

    /// A signal at the zenith in open sky, dB-Hz; at the horizon it is `zenithGain` less.
    public static let zenithCN0 = 47.0
    public static let zenithGain = 15.0
    /// The C/N0's noise, dB (one standard deviation, drawn anew each second).
    public static let cn0Noise = 1.5
    /// The weakest signal a phone tracks, dB-Hz: below it the satellite is not in view.
    public static let trackingThreshold = 12.0
    /// The weakest signal a fix uses, dB-Hz, and the lowest satellite it uses, degrees.
    public static let usedThreshold = 20.0
    public static let usedElevation = 10.0
    /// Half the width of a street's open strip of sky, degrees of azimuth either side of its axis.
    public static let streetHalfWidth = 20.0

    public init(elevationMask: Double, streetMask: Double?, attenuation: Double) {
        self.elevationMask = elevationMask
        self.streetMask = streetMask
        self.attenuation = attenuation
    }

    /// The conditions of a preset, by its name; open sky for one without its own.
    public static func of(_ preset: GNSSPreset) -> SkyConditions {
        switch preset.name {
        case GNSSPreset.urban.name: return .urban
        case GNSSPreset.forest.name: return .forest
        case GNSSPreset.indoor.name: return .indoor
        default: return .openSky
        }
    }
}

/// Whether a receiver sees the sky: as it has a fix, while it acquires one (satellites in
/// view, none used), or not at all (a tunnel, an outage: no satellite).
public enum SkyReception: Sendable, Equatable {
    case fix, acquiring, blocked
}

/// A sky made up for a source that records none (RULES N8): satellites of four systems on
/// orbits drawn from the seed, each moving as its system's satellites do (one turn in
/// 11 h 58 min for GPS), seen through a preset's `SkyConditions`. A function of the seed and
/// the instant alone, so the same seed gives the same sky at any replay speed.
public struct SkySynthesis: Sendable {
    /// Each system's satellites and orbital period, seconds.
    public static let systems: [(constellation: Constellation, count: Int, period: Double)] = [
        (.gps, 31, 43_082), (.galileo, 24, 50_680), (.glonass, 24, 40_544), (.beidou, 30, 46_404),
    ]

    private struct Orbit: Sendable {
        var constellation: Constellation
        var svid: Int
        /// Two unit vectors (east, north, up) spanning the orbit's plane, and where on it the
        /// satellite was at time 0.
        var u: (Double, Double, Double)
        var v: (Double, Double, Double)
        var phase: Double
        var angularRate: Double
    }

    public let seed: UInt64
    private let orbits: [Orbit]
    /// The street's axis in a canyon, degrees from north.
    public let streetAxis: Double

    public init(seed: UInt64) {
        self.seed = seed
        var random = SeededGenerator(seed: seed ^ 0x5_4B59)
        var orbits: [Orbit] = []
        for system in Self.systems {
            for svid in 1...system.count {
                // A plane whose normal is uniform on the sphere.
                let z = random.uniform(in: -1...1), angle = random.uniform(in: 0...(2 * .pi))
                let r = (1 - z * z).squareRoot()
                let normal = (r * cos(angle), r * sin(angle), z)
                let u = Self.normalized(Self.cross(normal, abs(z) < 0.9 ? (0, 0, 1) : (1, 0, 0)))
                let v = Self.cross(normal, u)
                orbits.append(Orbit(
                    constellation: system.constellation, svid: svid, u: u, v: v,
                    phase: random.uniform(in: 0...(2 * .pi)), angularRate: 2 * .pi / system.period))
            }
        }
        self.orbits = orbits
        self.streetAxis = random.uniform(in: 0...180).truncatingRemainder(dividingBy: 180)
    }

    /// The sky at `time` through `conditions`, as a receiver with `reception` reports it.
    public func sky(at time: Timestamp, conditions: SkyConditions, reception: SkyReception) -> SkyView {
        guard reception != .blocked else { return SkyView(satellites: []) }
        let seconds = Double(time.nanoseconds) / 1e9
        let second = time.nanoseconds / 1_000_000_000
        var satellites: [SatelliteInView] = []
        for orbit in orbits {
            let angle = orbit.phase + orbit.angularRate * seconds
            let (c, s) = (cos(angle), sin(angle))
            let east = c * orbit.u.0 + s * orbit.v.0, north = c * orbit.u.1 + s * orbit.v.1, up = c * orbit.u.2 + s * orbit.v.2
            let elevation = asin(max(-1, min(1, up))) * 180 / .pi
            var azimuth = atan2(east, north) * 180 / .pi
            if azimuth < 0 { azimuth += 360 }
            if azimuth >= 360 { azimuth = 0 }
            guard elevation >= mask(azimuth: azimuth, conditions: conditions) else { continue }
            var noise = SeededGenerator(seed: seed ^ UInt64(bitPattern: second &* 1_000_003) ^ UInt64(orbit.constellation.rawValue << 8 | orbit.svid))
            let cn0 = SkyConditions.zenithCN0 - SkyConditions.zenithGain * (1 - sin(elevation * .pi / 180)) - conditions.attenuation
                + SkyConditions.cn0Noise * noise.gaussian()
            guard cn0 >= SkyConditions.trackingThreshold else { continue }
            let used = reception == .fix && cn0 >= SkyConditions.usedThreshold && elevation >= SkyConditions.usedElevation
            satellites.append(SatelliteInView(
                constellation: orbit.constellation, svid: orbit.svid, elevation: (elevation * 10).rounded() / 10,
                azimuth: min(359.9, (azimuth * 10).rounded() / 10), cn0: (min(cn0, SatelliteInView.maximumCN0) * 10).rounded() / 10, used: used))
        }
        return SkyView(satellites: satellites)
    }

    /// The elevation a satellite at `azimuth` must reach to be seen.
    private func mask(azimuth: Double, conditions: SkyConditions) -> Double {
        guard let streetMask = conditions.streetMask else { return conditions.elevationMask }
        // Along the street, both ways: the angle to its axis, folded into 0...90.
        var off = abs(azimuth - streetAxis).truncatingRemainder(dividingBy: 180)
        if off > 90 { off = 180 - off }
        return off <= SkyConditions.streetHalfWidth ? streetMask : conditions.elevationMask
    }

    private static func cross(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> (Double, Double, Double) {
        (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
    }

    private static func normalized(_ a: (Double, Double, Double)) -> (Double, Double, Double) {
        let length = (a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot()
        return (a.0 / length, a.1 / length, a.2 / length)
    }
}
