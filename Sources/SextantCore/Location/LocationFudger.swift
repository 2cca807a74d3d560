// The C math library (sin, atan2…): Foundation would cost every program that links
// SextantCore its 6 MiB of resident code.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reduced accuracy (RULES L10), in the manner of Android's LocationFudger: the true
/// position is snapped to the centre of a 2 km grid cell.
///
/// The grid lives in metres east and north of a fixed origin (0°, 0°): north is the
/// meridian distance `lat × metresPerDegreeLatitude`; east is `lon × metresPerDegreeLongitude`
/// at the latitude of the cell row's centre, so that every cell of a row has the same
/// shape. Each app's grid is shifted by its own fixed random offset (0..<2000 m on each
/// axis), so that two apps' cells do not share edges and no app can learn where the cell
/// boundary lies by comparing with another.
public struct LocationFudger: Sendable, Equatable {
    public static let cellSize = 2000.0
    /// The accuracy a reduced location claims at least.
    public static let minimumAccuracy = 2000.0
    /// Mean metres per degree of latitude on WGS84.
    public static let metresPerDegreeLatitude = 111_132.954

    /// The app's grid shift in metres, each in 0..<cellSize.
    public var offsetEast: Double
    public var offsetNorth: Double

    public init(offsetEast: Double, offsetNorth: Double) {
        self.offsetEast = offsetEast
        self.offsetNorth = offsetNorth
    }

    /// A grid cell: its row and column.
    public struct Cell: Sendable, Hashable {
        public var row: Int64
        public var column: Int64
    }

    /// The cell that holds a position, and the cell's centre.
    public func cell(latitude: Double, longitude: Double) -> (cell: Cell, latitude: Double, longitude: Double) {
        let size = Self.cellSize
        let north = latitude * Self.metresPerDegreeLatitude + offsetNorth
        let row = Int64((north / size).rounded(.down))
        let centreLatitude = max(-89.99, min(89.99, ((Double(row) + 0.5) * size - offsetNorth) / Self.metresPerDegreeLatitude))
        let metresPerDegreeLongitude = Self.metresPerDegreeLatitude * cos(centreLatitude * .pi / 180)
        let east = longitude * metresPerDegreeLongitude + offsetEast
        let column = Int64((east / size).rounded(.down))
        var centreLongitude = ((Double(column) + 0.5) * size - offsetEast) / metresPerDegreeLongitude
        if centreLongitude > 180 { centreLongitude -= 360 }
        if centreLongitude < -180 { centreLongitude += 360 }
        return (Cell(row: row, column: column), centreLatitude, centreLongitude)
    }

    /// The fix an app with reduced accuracy receives: the cell's centre, `hAcc` at least
    /// 2000 m, no altitude, speed or course.
    public func coarsen(_ fix: LocationFix) -> (fix: LocationFix, cell: Cell) {
        let snapped = cell(latitude: fix.latitude, longitude: fix.longitude)
        let coarse = LocationFix(
            latitude: snapped.latitude, longitude: snapped.longitude,
            horizontalAccuracy: max(Self.minimumAccuracy, fix.horizontalAccuracy), time: fix.time,
            simulated: fix.simulated)
        return (coarse, snapped.cell)
    }

    /// A new random shift for an app that has none yet.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> LocationFudger {
        LocationFudger(
            offsetEast: Double.random(in: 0..<cellSize, using: &generator),
            offsetNorth: Double.random(in: 0..<cellSize, using: &generator))
    }
}
