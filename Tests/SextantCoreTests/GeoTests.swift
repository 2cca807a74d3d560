import SextantCore
import Testing

@Suite("Geodesy")
struct GeoTests {
    @Test("One degree of latitude is 111,195 m on the 6,371,008.8 m sphere; a quarter meridian is 10,007.5 km")
    func distances() {
        #expect(abs(Geo.distance(lat1: 0, lon1: 0, lat2: 1, lon2: 0) - 111_195.08) < 0.1)
        #expect(abs(Geo.distance(lat1: 0, lon1: 10, lat2: 90, lon2: 10) - 10_007_557.2) < 1)
        #expect(Geo.distance(lat1: 48, lon1: 2, lat2: 48, lon2: 2) == 0)
        // Across the antimeridian the short way.
        #expect(abs(Geo.distance(lat1: 0, lon1: 179.5, lat2: 0, lon2: -179.5) - 111_195.08) < 0.1)
    }

    @Test("Bearings: north 0, east 90, south 180, west 270")
    func bearings() {
        #expect(abs(Geo.bearing(lat1: 0, lon1: 0, lat2: 1, lon2: 0) - 0) < 1e-9)
        #expect(abs(Geo.bearing(lat1: 0, lon1: 0, lat2: 0, lon2: 1) - 90) < 1e-9)
        #expect(abs(Geo.bearing(lat1: 1, lon1: 0, lat2: 0, lon2: 0) - 180) < 1e-9)
        #expect(abs(Geo.bearing(lat1: 0, lon1: 1, lat2: 0, lon2: 0) - 270) < 1e-9)
    }
}
