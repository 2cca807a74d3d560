import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 36 point 6: a fix is checked against the regions near it, not all of them, and
/// decides exactly what checking all of them decides.
@Suite("Regions: the spatial index")
struct RegionGridTests {
    /// A region of random size somewhere within `spread` degrees of (lat, lon).
    static func randomRegion(_ n: Int, near lat: Double, _ lon: Double, spread: Double, using random: inout SplitMix64) -> CircularRegion {
        let radius = [5.0, 80, 150, 900, 4000, 30000, 100_000][Int(random.next() % 7)]
        var longitude = lon + (Double(random.next() % 2001) / 1000 - 1) * spread
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        let latitude = max(-90, min(90, lat + (Double(random.next() % 2001) / 1000 - 1) * spread))
        let hysteresis: Double? = random.next() % 3 == 0 ? Double(random.next() % 500) : nil
        return CircularRegion(
            identifier: "r\(n)", latitude: latitude, longitude: longitude, radius: radius,
            loiteringDelay: random.next() % 4 == 0 ? 5 : nil, notifyInitialState: random.next() % 2 == 0, hysteresis: hysteresis)
    }

    /// The same regions in two monitors, one indexed and one that checks every region.
    static func pair(_ regions: [(String, CircularRegion)]) throws -> (indexed: Monitored, every: Monitored) {
        let indexed = Monitored(RegionMonitor(maxRegionsPerApp: 1000))
        var reference = RegionMonitor(maxRegionsPerApp: 1000)
        reference.indexed = false
        let every = Monitored(reference)
        for (app, region) in regions {
            try indexed.monitor(region, for: app)
            try every.monitor(region, for: app)
        }
        return (indexed, every)
    }

    @Test(
        "Indexed and exhaustive decide the same transitions in the same order: walks, jumps, the antimeridian, near a pole, regions replaced and stopped",
        arguments: [(48.85, 2.29), (-17.0, 179.9), (-17.0, -179.95), (88.5, 10.0), (0.0, 0.0)])
    func sameAsEveryRegion(lat: Double, lon: Double) throws {
        var random = SplitMix64(seed: UInt64(abs(lat * 1000 + lon)) + 7)
        var regions: [(String, CircularRegion)] = []
        for n in 0..<600 { regions.append(("app\(n % 13)", Self.randomRegion(n, near: lat, lon, spread: 0.6, using: &random))) }
        let (indexed, every) = try Self.pair(regions)
        var position = (lat: lat, lon: lon)
        for second in 0..<1500 {
            // Mostly a walk of ~30 m; now and then a jump of up to ~60 km, or of half the world.
            switch random.next() % 50 {
            case 0: position.lon += (Double(random.next() % 2001) / 1000 - 1) * 0.8
            case 1: position.lon += 179.5
            default: position.lon += (Double(random.next() % 2001) / 1000 - 1) * 0.0004
            }
            position.lat = max(-89.9, min(89.9, position.lat + (Double(random.next() % 2001) / 1000 - 1) * 0.0003))
            if position.lon > 180 { position.lon -= 360 } else if position.lon < -180 { position.lon += 360 }
            let fix = LocationFix(
                latitude: position.lat, longitude: position.lon, horizontalAccuracy: Double(random.next() % 60) + 1,
                time: Timestamp(seconds: 1_700_000_000 + Double(second)))
            #expect(indexed.evaluate(fix) == every.evaluate(fix), "fix \(second) at \(position)")
            if second % 100 == 50 {
                // Replace one region and stop another, in both.
                let (app, region) = regions[Int(random.next() % UInt64(regions.count))]
                var moved = region
                moved.latitude = position.lat
                moved.longitude = position.lon
                try indexed.monitor(moved, for: app)
                try every.monitor(moved, for: app)
                let (gone, stopped) = regions[Int(random.next() % UInt64(regions.count))]
                #expect(indexed.stop(stopped.identifier, for: gone) == every.stop(stopped.identifier, for: gone))
            }
        }
        for (app, region) in regions { #expect(indexed.state(of: region.identifier, for: app) == every.state(of: region.identifier, for: app)) }
    }

    @Test("250,000 regions far from the device and three near it: a fix is checked against the few near it")
    func fixChecksOnlyNearRegions() throws {
        var monitor = RegionMonitor(maxRegionsPerApp: 100)
        let place = RegionPlace(latitude: 48.85, longitude: 2.29)
        for n in 0..<250_000 {
            // A grid of regions 200 m apart, 10-30 km west of the device.
            let region = place.region("r\(n)", radius: 50, east: -10_000 - Double(n % 100) * 200, north: Double(n / 100) * 10 - 12_500)
            try monitor.monitor(region, for: "app\(n / 100)")
        }
        for n in 0..<3 { try monitor.monitor(place.region("near\(n)", radius: 100, east: Double(n) * 300), for: "near") }
        // The first fix settles every region (each is unknown until then).
        _ = monitor.evaluate(place.fix(east: -3000, second: 0))
        #expect(monitor.lastLookedAt == 250_003)
        var events: [String] = []
        for second in 1...40 {
            events += regionEvents(monitor.evaluate(place.fix(east: -400 + Double(second) * 25, second: Double(second))))
            #expect(monitor.lastLookedAt <= 10, "fix \(second) was checked against \(monitor.lastLookedAt) regions")
        }
        #expect(events == ["near0 enter", "near0 exit", "near1 enter", "near1 exit", "near2 enter"])
    }

    @Test("R5: a move whose ends straddle the meridian opposite a region's centre does not cross the region")
    func noCrossingRoundTheFarSide() throws {
        let monitor = Monitored()
        try monitor.monitor(CircularRegion(identifier: "far", latitude: 48.85, longitude: -85, radius: 150), for: "app")
        _ = monitor.evaluate(LocationFix(latitude: 48.85, longitude: 94.9999, horizontalAccuracy: 5, time: Timestamp(seconds: 1_700_000_000)))
        let crossed = monitor.evaluate(LocationFix(latitude: 48.85, longitude: 95.0001, horizontalAccuracy: 5, time: Timestamp(seconds: 1_700_000_001)))
        #expect(regionEvents(crossed).isEmpty, "walking 15 m across longitude 95 E is not a pass through a region at 85 W")
        #expect(monitor.state(of: "far", for: "app") == .outside)
    }
}
