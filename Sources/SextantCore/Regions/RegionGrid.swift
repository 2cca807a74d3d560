#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the monitored regions are, so that a fix is checked only against the regions
/// that could change with it: a value, no I/O.
///
/// Regions are kept by size: a region whose outer circle (radius plus hysteresis) is at
/// most 2^e metres goes in level e, whose cells are 2^e metres of latitude on a side (the
/// same number of degrees of longitude), in the one cell of its centre. A search around a
/// point with a margin looks, in each level, at the cells within the level's size plus the
/// margin; cells are degree squares, so the longitude span is widened by the cosine of the
/// latitude nearest a pole within the span. Levels start at 256 m (a smaller region costs
/// a 256 m cell), and a region up to 110 km (R8's largest radius with the largest
/// hysteresis) is in level 17: at most 10 levels.
///
/// A search that would reach a pole or the antimeridian, or span half the world, says so
/// (nil): the caller then looks at every region.
struct RegionGrid: Sendable {
    struct Cell: Hashable, Sendable {
        var row: Int32
        var column: Int32
    }

    /// One size of region: its cells, each with the regions whose centre is in it.
    struct Level: Sendable {
        var cells: [Cell: Set<Int>] = [:]
    }

    /// A search: a box of latitudes and longitudes (the points of a fix and of the fix
    /// before it), and the metres around it (the fixes' uncertainty).
    struct Area {
        var south: Double, north: Double, west: Double, east: Double
        var margin: Double
    }

    static let smallestExponent = 8
    static let metresPerDegree = RegionWatch.northScale

    private(set) var levels: [Int: Level] = [:]

    /// The level of a region whose outer circle is `outer` metres.
    static func exponent(outer: Double) -> Int {
        var exponent = smallestExponent
        while Double(1 << exponent) < outer, exponent < 62 { exponent += 1 }
        return exponent
    }

    static func cellDegrees(_ exponent: Int) -> Double { Double(1 << exponent) / metresPerDegree }

    static func cell(latitude: Double, longitude: Double, exponent: Int) -> Cell {
        let size = cellDegrees(exponent)
        return Cell(row: Int32((latitude / size).rounded(.down)), column: Int32((longitude / size).rounded(.down)))
    }

    mutating func insert(_ id: Int, latitude: Double, longitude: Double, outer: Double) {
        let exponent = Self.exponent(outer: outer)
        levels[exponent, default: Level()].cells[Self.cell(latitude: latitude, longitude: longitude, exponent: exponent), default: []].insert(id)
    }

    mutating func remove(_ id: Int, latitude: Double, longitude: Double, outer: Double) {
        let exponent = Self.exponent(outer: outer)
        let cell = Self.cell(latitude: latitude, longitude: longitude, exponent: exponent)
        guard var ids = levels[exponent]?.cells[cell] else { return }
        ids.remove(id)
        if ids.isEmpty {
            levels[exponent]?.cells[cell] = nil
            if levels[exponent]?.cells.isEmpty == true { levels[exponent] = nil }
        } else {
            levels[exponent]?.cells[cell] = ids
        }
    }

    /// The regions whose centre is near enough `area` that a fix in it could decide
    /// something of them; nil when the area is one the grid cannot bound (see above).
    func near(_ area: Area) -> [Int]? {
        var found: [Int] = []
        for (exponent, level) in levels {
            guard let box = Self.box(area, exponent: exponent) else { return nil }
            collect(level, box, into: &found)
        }
        return found
    }

    /// The rows and columns a search of one level covers; nil past a pole or the antimeridian.
    static func box(_ area: Area, exponent: Int) -> (rows: ClosedRange<Int32>, columns: ClosedRange<Int32>)? {
        let reach = Double(1 << exponent) + area.margin
        let latitudes = reach / metresPerDegree
        let south = area.south - latitudes, north = area.north + latitudes
        guard south > -90, north < 90 else { return nil }
        let narrowest = min(cos(south * .pi / 180), cos(north * .pi / 180))
        let longitudes = reach / (metresPerDegree * narrowest)
        let west = area.west - longitudes, east = area.east + longitudes
        guard west > -180, east < 180, east - west < 180 else { return nil }
        let low = cell(latitude: south, longitude: west, exponent: exponent)
        let high = cell(latitude: north, longitude: east, exponent: exponent)
        return (low.row...high.row, low.column...high.column)
    }

    /// Looks up each cell of the box, or, when the box has more cells than the level holds,
    /// goes through the level's cells instead: a search never costs more than the level.
    private func collect(_ level: Level, _ box: (rows: ClosedRange<Int32>, columns: ClosedRange<Int32>), into found: inout [Int]) {
        let cells = (Int(box.rows.upperBound) - Int(box.rows.lowerBound) + 1) * (Int(box.columns.upperBound) - Int(box.columns.lowerBound) + 1)
        if cells > level.cells.count {
            for (cell, ids) in level.cells where box.rows.contains(cell.row) && box.columns.contains(cell.column) {
                found.append(contentsOf: ids)
            }
            return
        }
        for row in box.rows {
            for column in box.columns {
                if let ids = level.cells[Cell(row: row, column: column)] { found.append(contentsOf: ids) }
            }
        }
    }
}
