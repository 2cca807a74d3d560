import Foundation
import SextantCore
import SextantProtocol
import Testing

/// Reduced accuracy and per-stream filtering (RULES L10, L11), with expectations computed
/// from the grid's definition by hand rather than by the fudger itself.
@Suite("Reduced accuracy and location streams (L10, L11)")
struct ReducedAccuracyTests {
    static let time = Timestamp(nanoseconds: 1_772_352_000_000_000_000)

    static func fix(_ lat: Double, _ lon: Double, hAcc: Double = 5) -> LocationFix {
        LocationFix(latitude: lat, longitude: lon, altitude: 35, horizontalAccuracy: hAcc, verticalAccuracy: 3, speed: 1.4, course: 90, time: time)
    }

    @Test("L10: with no offset, a point snaps to the centre of its 2 km cell, computed from the grid's definition")
    func l10CellCentreByHand() {
        let fudger = LocationFudger(offsetEast: 0, offsetNorth: 0)
        let m = LocationFudger.metresPerDegreeLatitude
        let lat = 48.85837, lon = 2.29448
        // Row: floor(lat·m / 2000); centre latitude at (row + ½)·2000 / m.
        let row = (lat * m / 2000).rounded(.down)
        let centreLat = (row + 0.5) * 2000 / m
        let mLon = m * cos(centreLat * .pi / 180)
        let column = (lon * mLon / 2000).rounded(.down)
        let centreLon = (column + 0.5) * 2000 / mLon
        let (coarse, _) = fudger.coarsen(Self.fix(lat, lon))
        #expect(abs(coarse.latitude - centreLat) < 1e-12)
        #expect(abs(coarse.longitude - centreLon) < 1e-12)
    }

    @Test("L10: the coarse fix has hAcc ≥ 2000 m, no altitude, vAcc, speed or course, and the same time")
    func l10StripsDetail() {
        let fudger = LocationFudger(offsetEast: 731, offsetNorth: 1234)
        let (coarse, _) = fudger.coarsen(Self.fix(48.85837, 2.29448))
        #expect(coarse.horizontalAccuracy == 2000)
        #expect(coarse.altitude == nil && coarse.verticalAccuracy == nil && coarse.speed == nil && coarse.course == nil)
        #expect(coarse.time == Self.time)
        #expect(fudger.coarsen(Self.fix(48.85837, 2.29448, hAcc: 3500)).fix.horizontalAccuracy == 3500)
    }

    @Test("L10: over a dense sweep, the true point is always within the cell (≤ √2 km of its centre, ≤ 1 km per axis)")
    func l10NeverCloserThanTheCellAllows() {
        let fudger = LocationFudger(offsetEast: 1777.7, offsetNorth: 12.5)
        var cells: Set<LocationFudger.Cell> = []
        for i in 0..<400 {
            let lat = 48.80 + Double(i) * 0.00031, lon = 2.25 + Double(i) * 0.00047
            let (coarse, cell) = fudger.coarsen(Self.fix(lat, lon))
            cells.insert(cell)
            let north = (lat - coarse.latitude) * LocationFudger.metresPerDegreeLatitude
            #expect(abs(north) <= 1000.001)
            #expect(Geo.distance(lat1: lat, lon1: lon, lat2: coarse.latitude, lon2: coarse.longitude) <= 2000 * 2.0.squareRoot() / 2 + 5)
        }
        #expect(cells.count > 10, "the sweep crosses many cells")
    }

    @Test("L10: two apps' grids differ by their offsets: the same point lands on different centres")
    func l10PerAppOffset() {
        let a = LocationFudger(offsetEast: 100, offsetNorth: 100).coarsen(Self.fix(48.85837, 2.29448)).fix
        let b = LocationFudger(offsetEast: 1100, offsetNorth: 900).coarsen(Self.fix(48.85837, 2.29448)).fix
        #expect(a.latitude != b.latitude || a.longitude != b.longitude)
    }

    @Test("L10: a reduced stream delivers the first fix and then only when the cell changes")
    func l10OnlyOnCellChange() {
        let fudger = LocationFudger(offsetEast: 0, offsetNorth: 0)
        var stream = LocationStream()
        let m = LocationFudger.metresPerDegreeLatitude
        // Walk north in 100 m steps from a row's southern edge: 20 steps per 2 km cell.
        let baseRow = (48.0 * m / 2000).rounded(.down) + 1
        var delivered = 0
        for step in 0..<60 {
            let lat = (baseRow * 2000 + 50 + Double(step) * 100) / m
            if let (out, accuracy) = stream.offer(Self.fix(lat, 2.3), authorized: .reduced, fudger: fudger) {
                #expect(accuracy == .reduced)
                #expect(out.horizontalAccuracy >= 2000)
                delivered += 1
            }
        }
        #expect(delivered == 3, "60 steps of 100 m from a cell's edge cross 3 cells")
    }

    @Test("L10: desiredAccuracy of 2000 m or more is served reduced even to a full-accuracy app")
    func l10DesiredAccuracyReduces() {
        #expect(LocationStream(desiredAccuracy: 1999).served(.full) == .full)
        #expect(LocationStream(desiredAccuracy: 2000).served(.full) == .reduced)
        #expect(LocationStream().served(.reduced) == .reduced)
    }

    @Test("L11: distanceFilter delivers a fix only once it is at least the filter from the last one delivered")
    func l11DistanceFilter() {
        let fudger = LocationFudger(offsetEast: 0, offsetNorth: 0)
        var stream = LocationStream(distanceFilter: 10)
        // 1 m of latitude is 1/111,195 degree on the haversine sphere.
        let metre = 1 / 111_195.08
        var deliveredAt: [Int] = []
        for step in 0..<25 {
            let lat = 48.0 + Double(step) * 3 * metre  // 3 m per step
            if stream.offer(Self.fix(lat, 2.3), authorized: .full, fudger: fudger) != nil { deliveredAt.append(step) }
        }
        // 0 m, then 12 m (step 4), 24 m (step 8), ...: 9 m is under the filter.
        #expect(deliveredAt == [0, 4, 8, 12, 16, 20, 24])
    }

    @Test("L11: a zero filter delivers every fix unchanged at full accuracy")
    func l11ZeroFilter() {
        var stream = LocationStream()
        let fix = Self.fix(48.85837, 2.29448)
        for _ in 0..<3 {
            let out = stream.offer(fix, authorized: .full, fudger: LocationFudger(offsetEast: 0, offsetNorth: 0))
            #expect(out?.0 == fix && out?.1 == .full)
        }
    }
}
