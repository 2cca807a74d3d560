import Foundation
import SextantCore
import SextantProtocol
import Testing

/// Positions in metres east and north of a region's centre, on its local plane.
struct RegionPlace {
    var latitude = 48.0
    var longitude = 2.0

    func fix(east: Double, north: Double = 0, accuracy: Double = 5, second: Double) -> LocationFix {
        let northScale = Geo.earthRadius * .pi / 180
        let eastScale = northScale * cos(latitude * .pi / 180)
        var lon = longitude + east / eastScale
        if lon > 180 { lon -= 360 }
        return LocationFix(
            latitude: latitude + north / northScale, longitude: lon, horizontalAccuracy: accuracy,
            time: Timestamp(seconds: 1_700_000_000 + second))
    }

    func region(_ identifier: String = "shop", radius: Double = 100, east: Double = 0, north: Double = 0) -> CircularRegion {
        let northScale = Geo.earthRadius * .pi / 180
        let eastScale = northScale * cos(latitude * .pi / 180)
        return CircularRegion(
            identifier: identifier, latitude: latitude + north / northScale, longitude: longitude + east / eastScale, radius: radius)
    }
}

/// A monitor held by reference, so that `#expect` may call its mutating methods.
final class Monitored {
    var monitor: RegionMonitor
    init(_ monitor: RegionMonitor = RegionMonitor()) { self.monitor = monitor }
    func monitor(_ region: CircularRegion, for app: String) throws(RegionRefusal) { try monitor.monitor(region, for: app) }
    func stop(_ identifier: String, for app: String) -> Bool { monitor.stop(identifier, for: app) }
    func evaluate(_ fix: LocationFix) -> [RegionTransition] { monitor.evaluate(fix) }
    func state(of identifier: String, for app: String) -> RegionState? { monitor.state(of: identifier, for: app) }
    func regions(of app: String) -> [CircularRegion] { monitor.regions(of: app) }
    var count: Int { monitor.count }
    var appsMonitoring: [String] { monitor.appsMonitoring }
}

func regionEvents(_ transitions: [RegionTransition]) -> [String] {
    transitions.map { t in
        if case .state(let state) = t.kind { return "\(t.identifier) state \(state.rawValue)" }
        return "\(t.identifier) \(t.kind.name)"
    }
}

@Suite("Regions: the decision (R1–R6)")
struct RegionMonitorTests {
    let place = RegionPlace()

    @Test("R1: a fix whose uncertainty circle is within the radius is inside; R4: the first determination is a state, not an event")
    func r1InsideAndR4FirstIsState() throws {
        let monitor = Monitored()
        try monitor.monitor(place.region(), for: "app")
        #expect(monitor.state(of: "shop", for: "app") == .unknown)
        #expect(monitor.evaluate(place.fix(east: 90, accuracy: 5, second: 0)).isEmpty)
        #expect(monitor.state(of: "shop", for: "app") == .inside)
        #expect(monitor.state(of: "other", for: "app") == nil)
    }

    @Test("R4: an app that asked for the initial state is told it, inside or outside")
    func r4InitialStateWhenAsked() throws {
        let monitor = Monitored()
        var asking = place.region("near")
        asking.notifyInitialState = true
        var far = place.region("far", east: 5000)
        far.notifyInitialState = true
        try monitor.monitor(asking, for: "app")
        try monitor.monitor(far, for: "app")
        let out = monitor.evaluate(place.fix(east: 0, second: 7))
        #expect(regionEvents(out) == ["near state inside", "far state outside"])
        #expect(out.allSatisfy { $0.time == place.fix(east: 0, second: 7).time && $0.app == "app" })
    }

    @Test("R2: outside only beyond radius plus hysteresis (20 m by default, the region's own when given)")
    func r2Hysteresis() throws {
        let monitor = Monitored()
        try monitor.monitor(place.region("default"), for: "app")
        var tight = place.region("tight")
        tight.hysteresis = 0
        try monitor.monitor(tight, for: "app")
        _ = monitor.evaluate(place.fix(east: 0, second: 0))
        // 112 m ± 5: beyond 100 + 0 for "tight", within the band of "default".
        #expect(regionEvents(monitor.evaluate(place.fix(east: 112, second: 1))) == ["tight exit"])
        #expect(monitor.state(of: "default", for: "app") == .inside)
        #expect(regionEvents(monitor.evaluate(place.fix(east: 124, second: 2))).isEmpty)
        #expect(regionEvents(monitor.evaluate(place.fix(east: 126, second: 3))) == ["default exit"])
    }

    @Test("R3: a fix whose uncertainty straddles the border decides nothing")
    func r3StraddleDecidesNothing() throws {
        let monitor = Monitored()
        try monitor.monitor(place.region(), for: "app")
        _ = monitor.evaluate(place.fix(east: 500, second: 0))
        #expect(monitor.evaluate(place.fix(east: 97, accuracy: 5, second: 1)).isEmpty)
        #expect(monitor.evaluate(place.fix(east: 40, accuracy: 65, second: 2)).isEmpty)
        #expect(monitor.state(of: "shop", for: "app") == .outside)
        let entry = monitor.evaluate(place.fix(east: 94, accuracy: 5, second: 3))
        #expect(regionEvents(entry) == ["shop enter"])
        #expect(entry.first?.time == place.fix(east: 0, second: 3).time)
        // Inside, a straddling fix does not exit either.
        #expect(monitor.evaluate(place.fix(east: 110, accuracy: 30, second: 4)).isEmpty)
        #expect(monitor.state(of: "shop", for: "app") == .inside)
    }

    @Test("R5: a jump across a region yields its entry and exit, in order, with the fix that decided them")
    func r5TeleportCrossesInOrder() throws {
        let monitor = Monitored()
        try monitor.monitor(place.region("west", radius: 50, east: -200), for: "app")
        try monitor.monitor(place.region("east", radius: 50, east: 200), for: "app")
        try monitor.monitor(place.region("aside", radius: 50, north: 300), for: "app")
        _ = monitor.evaluate(place.fix(east: 1000, second: 0))
        let jump = monitor.evaluate(place.fix(east: -1000, second: 1))
        // Westward: "east" is crossed first, then "west"; "aside" is missed.
        #expect(regionEvents(jump) == ["east enter", "east exit", "west enter", "west exit"])
        #expect(jump.allSatisfy { $0.time == place.fix(east: 0, second: 1).time })
        // A jump that passes 47 m from the centres, within 50 m but not by the fixes' 5 m,
        // crosses nothing.
        #expect(monitor.evaluate(place.fix(east: -1000, north: 47, second: 2)).isEmpty)
        #expect(monitor.evaluate(place.fix(east: 1000, north: 47, second: 3)).isEmpty)
    }

    @Test("R5: a jump from inside one region into another exits the first before entering the second")
    func r5JumpBetweenRegions() throws {
        let monitor = Monitored()
        try monitor.monitor(place.region("b", radius: 50, east: 400), for: "app")
        try monitor.monitor(place.region("a", radius: 50), for: "app")
        _ = monitor.evaluate(place.fix(east: 0, second: 0))
        #expect(regionEvents(monitor.evaluate(place.fix(east: 400, second: 1))) == ["a exit", "b enter"])
    }

    @Test("R6: dwell once a stay has lasted the loitering delay, in sample time; again only after a new entry")
    func r6Dwell() throws {
        let monitor = Monitored()
        var region = place.region()
        region.loiteringDelay = 30
        try monitor.monitor(region, for: "app")
        _ = monitor.evaluate(place.fix(east: 500, second: 0))
        #expect(regionEvents(monitor.evaluate(place.fix(east: 0, second: 10))) == ["shop enter"])
        #expect(monitor.evaluate(place.fix(east: 10, second: 39.9)).isEmpty)
        let dwell = monitor.evaluate(place.fix(east: 10, second: 40))
        #expect(regionEvents(dwell) == ["shop dwell"])
        #expect(dwell.first?.time == place.fix(east: 0, second: 40).time)
        #expect(monitor.evaluate(place.fix(east: 10, second: 100)).isEmpty)
        #expect(regionEvents(monitor.evaluate(place.fix(east: 500, second: 110))) == ["shop exit"])
        #expect(regionEvents(monitor.evaluate(place.fix(east: 0, second: 120))) == ["shop enter"])
        #expect(regionEvents(monitor.evaluate(place.fix(east: 0, second: 150))) == ["shop dwell"])
    }

    @Test("R6: a delay of 0 dwells with the entry, after it; a stay that starts inside counts from the first determination")
    func r6DwellAtOnceAndFromStart() throws {
        let monitor = Monitored()
        var atOnce = place.region("now")
        atOnce.loiteringDelay = 0
        try monitor.monitor(atOnce, for: "app")
        _ = monitor.evaluate(place.fix(east: 500, second: 0))
        #expect(regionEvents(monitor.evaluate(place.fix(east: 0, second: 1))) == ["now enter", "now dwell"])
        var later = place.region("later")
        later.loiteringDelay = 60
        try monitor.monitor(later, for: "app")
        #expect(monitor.evaluate(place.fix(east: 0, second: 2)).isEmpty)
        #expect(regionEvents(monitor.evaluate(place.fix(east: 0, second: 62))) == ["later dwell"])
    }

    @Test("R5: notifyOnEntry and notifyOnExit choose what is told; the state follows either way")
    func notifyFlags() throws {
        let monitor = Monitored()
        var region = place.region()
        region.notifyOnEntry = false
        try monitor.monitor(region, for: "app")
        _ = monitor.evaluate(place.fix(east: 500, second: 0))
        #expect(monitor.evaluate(place.fix(east: 0, second: 1)).isEmpty)
        #expect(monitor.state(of: "shop", for: "app") == .inside)
        #expect(regionEvents(monitor.evaluate(place.fix(east: 500, second: 2))) == ["shop exit"])
    }

    @Test("R5: a fix older than the previous one (a new replay) makes no segment")
    func timeBackwardsMakesNoSegment() throws {
        let monitor = Monitored()
        try monitor.monitor(place.region(), for: "app")
        _ = monitor.evaluate(place.fix(east: -500, second: 100))
        #expect(monitor.evaluate(place.fix(east: 500, second: 0)).isEmpty)
    }

    @Test("R1: a region on the antimeridian is entered from either side")
    func antimeridian() throws {
        let dateLine = RegionPlace(latitude: -17, longitude: 180)
        let monitor = Monitored()
        try monitor.monitor(dateLine.region(radius: 1000), for: "app")
        _ = monitor.evaluate(dateLine.fix(east: -5000, second: 0))
        #expect(regionEvents(monitor.evaluate(dateLine.fix(east: 300, second: 1))) == ["shop enter"])
        #expect(regionEvents(monitor.evaluate(dateLine.fix(east: 5000, second: 2))) == ["shop exit"])
    }

    @Test("R8: at most 20 regions an app, the same identifier replaces, radius within 1 m…100 km, fields named when out of bounds")
    func r8Limits() throws {
        let monitor = Monitored()
        for n in 0..<20 { try monitor.monitor(place.region("r\(n)", east: Double(n) * 1000), for: "app") }
        #expect(throws: RegionRefusal.tooMany(limit: 20)) { try monitor.monitor(place.region("r20"), for: "app") }
        try monitor.monitor(place.region("r3", radius: 500), for: "app")
        #expect(monitor.regions(of: "app").count == 20)
        #expect(monitor.regions(of: "app")[3].radius == 500)
        try monitor.monitor(place.region("r0"), for: "other")
        #expect(monitor.count == 21)
        #expect(throws: RegionRefusal.invalid("\"radius\" must be within 1...100000 m")) {
            try monitor.monitor(place.region("tiny", radius: 0.5), for: "other")
        }
        #expect(throws: RegionRefusal.invalid("\"radius\" must be within 1...100000 m")) {
            try monitor.monitor(place.region("huge", radius: 100_001), for: "other")
        }
        #expect(throws: RegionRefusal.invalid("\"identifier\" must be 1-255 bytes of UTF-8")) {
            try monitor.monitor(place.region(""), for: "other")
        }
        #expect(monitor.stop("r0", for: "other"))
        #expect(!monitor.stop("r0", for: "other"))
        #expect(monitor.appsMonitoring == ["app"])
        let android = Monitored(RegionMonitor(maxRegionsPerApp: 100))
        for n in 0..<100 { try android.monitor(place.region("r\(n)"), for: "app") }
        #expect(android.count == 100)
    }

    @Test("R5: re-monitoring an identifier starts it afresh: its state is unknown and its next determination a state")
    func replaceStartsAfresh() throws {
        let monitor = Monitored()
        try monitor.monitor(place.region(), for: "app")
        _ = monitor.evaluate(place.fix(east: 0, second: 0))
        try monitor.monitor(place.region(radius: 200), for: "app")
        #expect(monitor.state(of: "shop", for: "app") == .unknown)
        #expect(monitor.evaluate(place.fix(east: 0, second: 1)).isEmpty)
        #expect(monitor.state(of: "shop", for: "app") == .inside)
    }

    @Test("R9: 1000 apps × 20 regions, 10 Hz fixes of a walk: every app hears its own crossings, in app order")
    func manyAppsAtTenHertz() throws {
        let monitor = Monitored()
        for app in 0..<1000 {
            for n in 0..<20 {
                // One region per app on the walk's line at 200 m; the rest scattered far away.
                let region = n == 0 ? place.region("r0", radius: 50, east: 200) : place.region("r\(n)", east: Double(app * 20 + n) * 300, north: 5000)
                try monitor.monitor(region, for: "app\(app)")
            }
        }
        var heard: [RegionTransition] = []
        let start = ContinuousClock.now
        for step in 0...40 {
            // 10 fixes a second, 14 m apart: 0 to 560 m east.
            heard += monitor.evaluate(place.fix(east: Double(step) * 14, second: Double(step) / 10))
        }
        let elapsed = ContinuousClock.now - start
        print("regions: 1000 apps × 20 regions, 41 fixes: \(elapsed / 41) a fix (unoptimised build; Benchmarks/ for the figure)")
        #expect(heard.count == 2000)
        #expect(heard.prefix(1000).map(\.app) == (0..<1000).map { "app\($0)" })
        #expect(heard.prefix(1000).allSatisfy { $0.kind == .enter })
        #expect(heard.suffix(1000).allSatisfy { $0.kind == .exit })
    }
}
