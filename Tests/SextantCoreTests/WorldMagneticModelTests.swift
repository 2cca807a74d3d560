import Foundation
import SextantCore
import SextantProtocol
import Testing

@Suite("World Magnetic Model 2025")
struct WorldMagneticModelTests {
    static let cofPath = #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/wmm/WMM2025.COF"

    @Test("The Swift table is NOAA's WMM2025.COF, line for line (Tools/dev/make-wmm-table.py)")
    func tableEqualsTheFile() throws {
        let text = try String(contentsOfFile: Self.cofPath, encoding: .utf8)
        var lines = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let header = lines.removeFirst()
        #expect(Double(header[0]) == WorldMagneticModel.wmm2025.epoch)
        #expect(header[1] == WorldMagneticModel.wmm2025.name)
        let terms = lines.prefix { !$0[0].hasPrefix("9999") }.map { f in
            WMMTerm(
                n: Int(f[0])!, m: Int(f[1])!, g: Double(f[2])!, h: Double(f[3])!, gDot: Double(f[4])!,
                hDot: Double(f[5])!)
        }
        #expect(terms.count == 90)
        #expect(terms == WorldMagneticModel.wmm2025.terms)
    }

    /// NOAA's "Test Values for WMM2025" (WMM2025 report and test-value table): date, height
    /// above the ellipsoid (km), latitude, longitude, declination (degrees).
    @Test(
        "Declination matches NOAA's published test values to 0.01°",
        arguments: [
            (2025.0, 0.0, 80.0, 0.0, 1.28), (2025.0, 0, 0, 120, -0.16), (2025.0, 0, -80, 240, 68.78),
            (2025.0, 100, 80, 0, 0.85), (2025.0, 100, 0, 120, -0.15), (2025.0, 100, -80, 240, 68.21),
            (2027.5, 0, 80, 0, 2.59), (2027.5, 0, 0, 120, -0.24), (2027.5, 0, -80, 240, 68.49),
        ])
    func noaaDeclination(year: Double, heightKm: Double, latitude: Double, longitude: Double, expected: Double) {
        let elements = WorldMagneticModel.wmm2025.elements(
            latitude: latitude, longitude: longitude, height: heightKm * 1000, year: year)
        #expect(abs(elements.declination - expected) <= 0.005 + 1e-9, "got \(elements.declination)")
    }

    @Test("The whole field at 80°N 0°E, 2025.0, 0 km matches NOAA's values (X, Y, Z, F in nT; I in degrees)")
    func noaaField() {
        let e = WorldMagneticModel.wmm2025.elements(latitude: 80, longitude: 0, height: 0, year: 2025)
        #expect(abs(e.north - 6521.6) < 0.1)
        #expect(abs(e.east - 145.9) < 0.1)
        #expect(abs(e.down - 54791.5) < 0.1)
        #expect(abs(e.total - 55178.5) < 0.1)
        #expect(abs(e.inclination - 83.21) <= 0.005)
    }

    @Test("A decimal year counts the days of its own year")
    func decimalYears() {
        let year = { (y: Int, m: Int, d: Int, h: Double) in
            WorldMagneticModel.decimalYear(Timestamp(year: y, month: m, day: d, secondsOfDay: h * 3600))
        }
        #expect(year(2025, 1, 1, 0) == 2025.0)
        #expect(abs(year(2025, 7, 2, 12) - 2025.5) < 1e-9)
        #expect(abs(year(2028, 12, 31, 12) - (2028 + 365.5 / 366)) < 1e-9)
        #expect(abs(year(1969, 7, 2, 12) - 1969.5) < 1e-9)
    }
}
