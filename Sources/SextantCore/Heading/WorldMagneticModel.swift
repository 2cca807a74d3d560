// The C math library: Foundation would cost every program that links SextantCore its
// 6 MiB of resident code.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// One line of a World Magnetic Model coefficient file: the Gauss coefficients of degree
/// `n` and order `m` at the model's epoch, nT, and their secular variation, nT/year.
public struct WMMTerm: Sendable, Equatable {
    public var n: Int
    public var m: Int
    public var g: Double
    public var h: Double
    public var gDot: Double
    public var hDot: Double

    public init(n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double) {
        (self.n, self.m, self.g, self.h, self.gDot, self.hDot) = (n, m, g, h, gDot, hDot)
    }
}

/// Earth's main field at a place and date, as the model gives it: components in nT in the
/// geodetic frame (north, east, down), declination and inclination in degrees.
public struct GeomagneticElements: Sendable, Equatable {
    public var north: Double
    public var east: Double
    public var down: Double

    public init(north: Double, east: Double, down: Double) {
        (self.north, self.east, self.down) = (north, east, down)
    }

    /// Horizontal intensity H, nT.
    public var horizontal: Double { (north * north + east * east).squareRoot() }
    /// Total intensity F, nT.
    public var total: Double { (north * north + east * east + down * down).squareRoot() }
    /// Declination D: the angle from true north to magnetic north, east positive, degrees.
    /// True heading = magnetic heading + D.
    public var declination: Double { atan2(east, north) * 180 / .pi }
    /// Inclination I: the angle of the field below the horizontal, degrees.
    public var inclination: Double { atan2(down, horizontal) * 180 / .pi }
}

/// The World Magnetic Model (NOAA/NCEI and BGS): a spherical-harmonic expansion of Earth's
/// main field to degree 12, with a linear secular variation from the epoch. Pure: the
/// caller hands in the place (WGS-84 geodetic latitude and longitude in degrees, height
/// above the ellipsoid in metres) and the date as a decimal year.
public struct WorldMagneticModel: Sendable {
    public let name: String
    public let epoch: Double
    public let terms: [WMMTerm]
    let maxDegree: Int

    public init(name: String, epoch: Double, terms: [WMMTerm]) {
        self.name = name
        self.epoch = epoch
        self.terms = terms
        self.maxDegree = terms.map(\.n).max() ?? 0
    }

    /// The years the model is made for (five from its epoch); outside them it still answers,
    /// extrapolating its secular variation, as NOAA's own software does with a warning.
    public var validYears: Range<Double> { epoch..<(epoch + 5) }

    /// WGS-84's semi-major axis and flattening, and the model's reference radius (km).
    static let wgs84A = 6378.137
    static let wgs84F = 1 / 298.257223563
    static let referenceRadius = 6371.2

    /// The main field at a place and date.
    public func elements(latitude: Double, longitude: Double, height: Double, year: Double) -> GeomagneticElements {
        // The field's east component is divided by the cosine of the latitude: keep off the pole.
        let latitude = min(max(latitude, -89.999_999), 89.999_999)
        let phi = latitude * .pi / 180
        let (phiC, radius) = Self.geocentric(latitude: phi, heightKm: height / 1000)
        let legendre = SchmidtLegendre(degree: maxDegree, colatitude: .pi / 2 - phiC)
        let lambda = longitude * .pi / 180
        let dt = year - epoch
        var (xPrime, yPrime, zPrime) = (0.0, 0.0, 0.0)
        for term in terms {
            let ratio = Self.referenceRadius / radius
            let scale = pow(ratio, Double(term.n + 2))
            let g = term.g + dt * term.gDot
            let h = term.h + dt * term.hDot
            let cosML = cos(Double(term.m) * lambda)
            let sinML = sin(Double(term.m) * lambda)
            let k = SchmidtLegendre.index(term.n, term.m)
            let along = g * cosML + h * sinML
            xPrime += scale * along * legendre.dP[k]
            yPrime += scale * Double(term.m) * (g * sinML - h * cosML) * legendre.p[k]
            zPrime -= Double(term.n + 1) * scale * along * legendre.p[k]
        }
        yPrime /= cos(phiC)
        // From the geocentric sphere to the ellipsoid's local horizontal.
        let psi = phiC - phi
        return GeomagneticElements(
            north: xPrime * cos(psi) - zPrime * sin(psi), east: yPrime,
            down: xPrime * sin(psi) + zPrime * cos(psi))
    }

    /// The geocentric latitude (radians) and radius (km) of a geodetic latitude (radians)
    /// and height above the WGS-84 ellipsoid (km).
    static func geocentric(latitude phi: Double, heightKm: Double) -> (latitude: Double, radius: Double) {
        let e2 = wgs84F * (2 - wgs84F)
        let sinPhi = sin(phi)
        let rc = wgs84A / (1 - e2 * sinPhi * sinPhi).squareRoot()
        let p = (rc + heightKm) * cos(phi)
        let z = (rc * (1 - e2) + heightKm) * sinPhi
        let r = (p * p + z * z).squareRoot()
        return (asin(z / r), r)
    }

    /// An instant as a decimal year (2025.5 is about July 2nd 2025), as the model's dates are.
    public static func decimalYear(_ time: Timestamp) -> Double {
        let nanosecondsPerDay: Int64 = 86_400_000_000_000
        let days = time.nanoseconds >= 0
            ? time.nanoseconds / nanosecondsPerDay : (time.nanoseconds + 1) / nanosecondsPerDay - 1
        let year = Timestamp.civil(fromDays: days).year
        let start = Timestamp.days(fromCivil: year, 1, 1)
        let length = Double(Timestamp.days(fromCivil: year + 1, 1, 1) - start)
        let intoYear = Double(time.nanoseconds - start * nanosecondsPerDay) / Double(nanosecondsPerDay)
        return Double(year) + intoYear / length
    }
}

/// Schmidt semi-normalized associated Legendre functions Pₙᵐ(cos θ) and their derivatives
/// by θ (the colatitude), to one degree, by the usual recursions.
struct SchmidtLegendre {
    var p: [Double]
    var dP: [Double]

    static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    init(degree: Int, colatitude theta: Double) {
        let count = Self.index(degree, degree) + 1
        p = [Double](repeating: 0, count: count)
        dP = [Double](repeating: 0, count: count)
        let x = cos(theta), s = sin(theta)
        p[0] = 1
        guard degree >= 1 else { return }
        p[Self.index(1, 0)] = x
        dP[Self.index(1, 0)] = -s
        p[Self.index(1, 1)] = s
        dP[Self.index(1, 1)] = x
        for n in stride(from: 2, through: degree, by: 1) {
            let dn = Double(n)
            let diagonal = ((2 * dn - 1) / (2 * dn)).squareRoot()
            let previous = Self.index(n - 1, n - 1)
            p[Self.index(n, n)] = diagonal * s * p[previous]
            dP[Self.index(n, n)] = diagonal * (x * p[previous] + s * dP[previous])
            for m in 0..<n {
                let dm = Double(m)
                let below = Self.index(n - 1, m)
                let twoBelow = m <= n - 2 ? Self.index(n - 2, m) : nil
                let lower = ((dn - 1) * (dn - 1) - dm * dm).squareRoot()
                let norm = (dn * dn - dm * dm).squareRoot()
                let k = Self.index(n, m)
                p[k] = ((2 * dn - 1) * x * p[below] - lower * (twoBelow.map { p[$0] } ?? 0)) / norm
                dP[k] = ((2 * dn - 1) * (x * dP[below] - s * p[below]) - lower * (twoBelow.map { dP[$0] } ?? 0)) / norm
            }
        }
    }
}
