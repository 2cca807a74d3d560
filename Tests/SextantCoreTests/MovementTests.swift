import SextantCore
import SextantProtocol
import Testing

/// The significant-change service (RULES S1–S3) and visits (V1–V5), driven with hand-made
/// fixes: metres north of a point, seconds from a start.
@Suite("Significant changes and visits (S1–S3, V1–V5)")
struct MovementTests {
    static let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
    /// Metres in a degree of latitude on Geo's sphere.
    static let metresPerDegree = Geo.earthRadius * .pi / 180

    /// A fix `north` metres north (and `east` east) of 48° N 2.3° E, `seconds` after the start.
    static func fix(_ seconds: Double, north: Double, east: Double = 0, hAcc: Double = 5) -> LocationFix {
        let latitude = 48 + north / metresPerDegree
        let longitude = 2.3 + east / (metresPerDegree * 0.669_130_606_358_858_2)  // cos 48°
        return LocationFix(latitude: latitude, longitude: longitude, horizontalAccuracy: hAcc, time: start.adding(nanoseconds: Int64(seconds * 1e9)))
    }

    static func seconds(_ time: Timestamp?) -> Double? { time.map { Double($0.nanoseconds - start.nanoseconds) / 1e9 } }

    // MARK: - Significant changes

    /// Which of `fixes` (seconds, metres north) the monitor takes as changes, in order.
    static func changes(_ fixes: [(Double, Double)], settings: SignificantChangeSettings = SignificantChangeSettings()) -> [Bool] {
        var monitor = SignificantChangeMonitor(settings: settings)
        return fixes.map { monitor.offer(fix($0.0, north: $0.1)) }
    }

    @Test("S1: the first fix after the start is a significant change, wherever it is")
    func s1FirstFixIsAChange() {
        #expect(Self.changes([(0, 0), (1, 1)]) == [true, false])
    }

    @Test("S2: 500 m and 5 minutes by default: 499 m after 10 min is none, 501 m after 299 s is none, 501 m after 300 s is one")
    func s2DistanceAndInterval() {
        // The last two: measured from the last one delivered, not from the last fix seen.
        let taken = Self.changes([(0, 0), (600, 499), (299, 501), (300, 501), (700, 900), (701, 1002)])
        #expect(taken == [true, false, false, true, false, true])
    }

    @Test("S2: the numbers are settings: 100 m and 60 s")
    func s2Configurable() {
        let taken = Self.changes([(0, 0), (59, 150), (60, 150)], settings: SignificantChangeSettings(distance: 100, interval: 60))
        #expect(taken == [true, false, true])
    }

    @Test("S3: a fix older than the last one delivered (a new replay) starts the service afresh")
    func s3TimeBackwards() {
        #expect(Self.changes([(1000, 0), (0, 0), (10, 0)]) == [true, true, false])
    }

    // MARK: - Visits

    /// A walk north at 1.4 m/s for `walk` seconds, a stop of `stop` seconds, then on north.
    static func walkWithStop(walk: Int = 300, stop: Int, after: Int = 300) -> [LocationFix] {
        var fixes: [LocationFix] = []
        for t in 0..<walk { fixes.append(fix(Double(t), north: 1.4 * Double(t))) }
        let stopAt = 1.4 * Double(walk)
        for t in walk..<(walk + stop) { fixes.append(fix(Double(t), north: stopAt, east: Double(t % 7))) }
        for t in (walk + stop)..<(walk + stop + after) { fixes.append(fix(Double(t), north: stopAt + 1.4 * Double(t - walk - stop))) }
        return fixes
    }

    static func visits(_ fixes: [LocationFix], settings: VisitSettings = VisitSettings()) -> [(fix: Double, visit: Visit)] {
        var detector = VisitDetector(settings: settings)
        return fixes.compactMap { fix in detector.observe(fix).map { (seconds(fix.time)!, $0) } }
    }

    @Test("V1, V2: a 6-minute stop in a walk gives an arrival once the stay lasts 300 s, at the stay's first fix, departure unknown")
    func v2ArrivalAfterFiveMinutes() throws {
        let events = Self.visits(Self.walkWithStop(stop: 360))
        let arrival = try #require(events.first)
        #expect(arrival.visit.departure == nil)
        // The stay began on the way in, at most 100 m / 1.4 m/s before the stop.
        let began = try #require(Self.seconds(arrival.visit.arrival))
        #expect(began >= 300 - 100 / 1.4 && began <= 300)
        #expect(arrival.fix == began + 300)
        // The mean is near the stop, within the radius that holds every fix.
        let stop = Self.fix(0, north: 420, east: 3)
        let offset = Geo.distance(lat1: arrival.visit.latitude, lon1: arrival.visit.longitude, lat2: stop.latitude, lon2: stop.longitude)
        #expect(offset < 25 && arrival.visit.horizontalAccuracy >= 5 && arrival.visit.horizontalAccuracy <= 200)
    }

    @Test("V3: leaving gives one departure with the arrival, the same coordinate and the time of the last fix inside the radius")
    func v3Departure() throws {
        let events = Self.visits(Self.walkWithStop(stop: 360))
        #expect(events.count == 2)
        let (arrival, departure) = (events[0].visit, events[1].visit)
        #expect(departure.arrival == arrival.arrival && departure.latitude == arrival.latitude && departure.longitude == arrival.longitude)
        let left = try #require(Self.seconds(departure.departure))
        // Leaving at 1.4 m/s: out of the radius within 100 / 1.4 s of the end of the stop,
        // and the departure is the fix just before the one outside.
        #expect(left >= 660 && left <= 660 + 100 / 1.4)
        #expect(events[1].fix == left + 1)
    }

    @Test("V2: a stop of 200 s (271 s within 100 m, the way in and out counted) is no visit, nor is walking on; the numbers are settings (50 m, 60 s)")
    func v2ShortStopIsNoVisit() {
        #expect(Self.visits(Self.walkWithStop(stop: 200)).isEmpty)
        #expect(Self.visits((0..<3600).map { Self.fix(Double($0), north: 1.4 * Double($0)) }).isEmpty)
        let short = Self.visits(Self.walkWithStop(stop: 120), settings: VisitSettings(radius: 50, minimumStay: 60))
        #expect(short.count == 2 && short[0].visit.departure == nil && short[1].visit.departure != nil)
    }

    @Test("V2: hAcc is at least the stay's least accurate fix's")
    func v2AccuracyFromTheFixes() throws {
        var detector = VisitDetector()
        _ = detector.observe(Self.fix(0, north: 0, hAcc: 5))
        _ = detector.observe(Self.fix(100, north: 3, hAcc: 65))
        let arrived = detector.observe(Self.fix(300, north: 1, hAcc: 5))
        let visit = try #require(arrived)
        #expect(visit.horizontalAccuracy >= 65 && visit.horizontalAccuracy < 70)
    }

    @Test("V5: a fix older than the last (a new replay) starts afresh with no event: the visit under way ends unannounced")
    func v5TimeBackwards() {
        var detector = VisitDetector()
        var events = (0...300).compactMap { detector.observe(Self.fix(Double($0), north: 0)) }
        #expect(events.count == 1 && detector.current != nil)
        events = [0, 1, 2].compactMap { detector.observe(Self.fix(Double($0), north: 5000)) }
        #expect(events.isEmpty && detector.current == nil)
        // The new stay began at the older fix.
        events = (3...300).compactMap { detector.observe(Self.fix(Double($0), north: 5000)) }
        #expect(events.count == 1)
    }
}
