import Foundation
import SextantCore
import SextantProtocol
import Testing

/// The Android profile's fused provider (docs/platforms.md AN25–AN34): which fixes of a
/// 1 Hz receiver each request is delivered, and when. Each boundary is tested on both
/// sides, so that a different number fails.
@Suite("Android fused provider delivery (AN25–AN34)")
struct FusedDeliveryTests {
    typealias Provider = AndroidFusedProvider<String>

    static let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
    static func at(_ seconds: Double) -> Timestamp { Timestamp(nanoseconds: start.nanoseconds + Int64((seconds * 1000).rounded()) * 1_000_000) }

    /// A fix `metres` north of a point near Zurich, at `seconds`.
    static func fix(_ seconds: Double, north metres: Double = 0) -> LocationFix {
        LocationFix(latitude: 47.3769 + metres / 111_195, longitude: 8.5417, altitude: 410, horizontalAccuracy: 4, speed: 1, course: 0, time: at(seconds))
    }

    static let fine = AndroidLocationGrant(precise: true, background: true, api: 34)
    static let coarse = AndroidLocationGrant(precise: false, background: true, api: 34)
    static let fineForegroundOnly = AndroidLocationGrant(precise: true, background: false, api: 34)

    /// Feeds a 1 Hz receiver from `from` to `to` seconds (inclusive); returns the seconds at
    /// which `id` was delivered something, and the deliveries.
    static func run(
        _ provider: inout Provider, _ id: String, from: Int = 0, to: Int, north: (Int) -> Double = { _ in 0 },
        state: @escaping (String) -> AndroidAppState = { _ in .foreground }
    ) -> [(second: Int, delivery: FusedDelivery)] {
        var out: [(Int, FusedDelivery)] = []
        for s in from...to {
            for (who, delivery) in provider.receive(fix(Double(s), north: north(s)), now: at(Double(s)), state: state) where who == id {
                out.append((s, delivery))
            }
        }
        return out
    }

    static func seconds(_ deliveries: [(second: Int, delivery: FusedDelivery)]) -> [Int] { deliveries.map(\.second) }

    @Test("AN25: a lone coarse request asking every second is served every 10 min: 599 s nothing, 600 s a fix")
    func an25CoarseRateCapAlone() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("maps", request: .init(priority: .highAccuracy, intervalMillis: 1000), grant: Self.coarse, now: Self.at(0))
        #expect(Self.seconds(Self.run(&provider, "maps", to: 1300)) == [0, 600, 1200])
    }

    @Test("AN25/AN26: next to a fine app at 1 Hz, a coarse request gets a fix 10 min less 30 s of jitter apart (569 s no, 570 s yes)")
    func an25CoarseRateCapWithJitter() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("nav", request: .init(priority: .highAccuracy, intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        provider.register("weather", request: .init(intervalMillis: 1000), grant: Self.coarse, now: Self.at(0))
        let got = Self.run(&provider, "weather", to: 1200)
        #expect(Self.seconds(got) == [0, 570, 1140])
        for (_, delivery) in got {
            guard case .location(let fix) = delivery else { Issue.record("expected single fixes"); continue }
            #expect(fix.horizontalAccuracy == 2000 && fix.speed == nil && fix.altitude == nil)
        }
    }

    @Test("AN26: minUpdateIntervalMillis 5 s with interval 10 s passes a fix 4 s after the last (10 % jitter = 1 s)")
    func an26ExplicitMinUpdateInterval() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("nav", request: .init(intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        provider.register("run", request: .init(intervalMillis: 10_000, minUpdateIntervalMillis: 5000), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&provider, "run", to: 12)) == [0, 4, 8, 12])
    }

    @Test("AN26: with no explicit minimum, a 60 s interval passes fixes a sixth of it less 6 s of jitter apart (4 s)")
    func an26ImplicitMinUpdateInterval() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("nav", request: .init(intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        provider.register("log", request: .init(intervalMillis: 60_000), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&provider, "log", to: 12)) == [0, 4, 8, 12])
        #expect(FusedLocationRequest(intervalMillis: 60_000).effectiveMinUpdateIntervalMillis == 10_000)
        #expect(FusedLocationRequest(intervalMillis: 60_000, minUpdateIntervalMillis: 90_000).effectiveMinUpdateIntervalMillis == 60_000)
    }

    @Test("AN27: minUpdateDistanceMeters 25 at 10 m/s: a fix 20 m away is held back, 30 m away delivered")
    func an27MinUpdateDistance() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("walk", request: .init(intervalMillis: 1000, minUpdateDistanceMeters: 25), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&provider, "walk", to: 9, north: { Double($0) * 10 })) == [0, 3, 6, 9])
        var wider = Provider(fudgerSeed: 1)
        wider.register("walk", request: .init(intervalMillis: 1000, minUpdateDistanceMeters: 35), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&wider, "walk", to: 8, north: { Double($0) * 10 })) == [0, 4, 8])
    }

    @Test("AN28: an app in the background alone is served once every 30 min: 1799 s nothing, 1800 s a fix")
    func an28BackgroundThrottle() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("tracker", request: .init(priority: .highAccuracy, intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&provider, "tracker", to: 3700, state: { _ in .background })) == [0, 1800, 3600])
    }

    @Test("AN28: visible, or running a foreground service (importance FOREGROUND_SERVICE), it is not throttled")
    func an28ForegroundServiceExempt() {
        for state in [AndroidAppState.foreground, .locationForegroundService, .otherForegroundService] {
            var provider = Provider(fudgerSeed: 1)
            provider.register("tracker", request: .init(intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
            #expect(Self.seconds(Self.run(&provider, "tracker", to: 5, state: { _ in state })) == [0, 1, 2, 3, 4, 5], "\(state)")
        }
    }

    @Test("AN29: a passive request alone hears nothing; beside an active one it hears as often as its minimum allows")
    func an29PassiveRequests() {
        let passive = FusedLocationRequest(priority: .passive, intervalMillis: 1000, minUpdateIntervalMillis: 1000)
        var alone = Provider(fudgerSeed: 1)
        alone.register("listener", request: passive, grant: Self.fine, now: Self.at(0))
        #expect(Self.run(&alone, "listener", to: 10).isEmpty)
        var shared = Provider(fudgerSeed: 1)
        shared.register("listener", request: passive, grant: Self.fine, now: Self.at(0))
        shared.register("nav", request: .init(intervalMillis: 2000), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&shared, "listener", to: 6)) == [0, 2, 4, 6])
    }

    @Test("AN28/AN29: a background app beside a visible one hears fixes a sixth of 30 min less 30 s apart (270 s)")
    func an29BackgroundBesideForeground() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("nav", request: .init(intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        provider.register("tracker", request: .init(intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        let got = Self.run(&provider, "tracker", to: 600, state: { $0 == "nav" ? .foreground : .background })
        #expect(Self.seconds(got) == [0, 270, 540])
    }

    @Test("AN30: maxUpdateDelayMillis 5 s over a 1 s interval delivers the fixes held as one batch when the oldest is 5 s old")
    func an30Batching() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("hike", request: .init(intervalMillis: 1000, maxUpdateDelayMillis: 5000), grant: Self.fine, now: Self.at(0))
        let got = Self.run(&provider, "hike", to: 11)
        #expect(Self.seconds(got) == [5, 11])
        guard case .batch(let first) = got.first?.delivery else { Issue.record("expected a batch"); return }
        #expect(first.map(\.time) == (0...5).map { Self.at(Double($0)) })
    }

    @Test("AN30: batching needs a delay of at least twice the interval: 1999 ms over 1000 ms delivers each fix, 2000 ms batches")
    func an30BatchingThreshold() {
        var under = Provider(fudgerSeed: 1)
        under.register("a", request: .init(intervalMillis: 1000, maxUpdateDelayMillis: 1999), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&under, "a", to: 3)) == [0, 1, 2, 3])
        var at = Provider(fudgerSeed: 1)
        at.register("a", request: .init(intervalMillis: 1000, maxUpdateDelayMillis: 2000), grant: Self.fine, now: Self.at(0))
        let got = Self.run(&at, "a", to: 3)
        #expect(Self.seconds(got) == [2])
        #expect(got.first?.delivery == .batch([Self.fix(0), Self.fix(1), Self.fix(2)]))
    }

    @Test("AN30: with no new fix, a held batch is delivered when its delay runs out (advance)")
    func an30BatchFlushedByTime() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("hike", request: .init(intervalMillis: 1000, maxUpdateDelayMillis: 5000), grant: Self.fine, now: Self.at(0))
        #expect(Self.run(&provider, "hike", to: 3).isEmpty)
        let foreground: (String) -> AndroidAppState = { _ in .foreground }
        #expect(provider.nextDeadline(state: foreground) == Self.at(5))
        #expect(provider.advance(to: Self.at(4.999), state: foreground).isEmpty)
        let flushed = provider.advance(to: Self.at(5), state: foreground)
        #expect(flushed.count == 1 && flushed.first?.1 == .batch((0...3).map { Self.fix(Double($0)) }))
    }

    @Test("AN31: maxUpdates 2 ends the request after two deliveries, a batch counting once")
    func an31MaxUpdates() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("once", request: .init(intervalMillis: 1000, maxUpdates: 2), grant: Self.fine, now: Self.at(0))
        let got = Self.run(&provider, "once", to: 5)
        #expect(Self.seconds(got) == [0, 1, 1])
        #expect(got.last?.delivery == .ended(.maxUpdates))
        #expect(provider.isEmpty)
        var batched = Provider(fudgerSeed: 1)
        batched.register("b", request: .init(intervalMillis: 1000, maxUpdateDelayMillis: 2000, maxUpdates: 2), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&batched, "b", to: 9)) == [2, 5, 5])
    }

    @Test("AN31: durationMillis 10 s: a fix at 9 s is delivered, at 10 s the request has ended")
    func an31Duration() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("short", request: .init(intervalMillis: 1000, durationMillis: 10_000), grant: Self.fine, now: Self.at(0))
        let got = Self.run(&provider, "short", to: 12)
        #expect(Self.seconds(got) == Array(0...10))
        #expect(got.last?.delivery == .ended(.duration))
    }

    @Test("AN32: a While-using grant (API 29+) hears nothing in the background or under a non-location service; Android 9 does")
    func an32ForegroundOnlyGrant() {
        for (state, expected) in [(AndroidAppState.background, [Int]()), (.otherForegroundService, []), (.locationForegroundService, [0, 1, 2])] {
            var provider = Provider(fudgerSeed: 1)
            provider.register("app", request: .init(intervalMillis: 1000), grant: Self.fineForegroundOnly, now: Self.at(0))
            #expect(Self.seconds(Self.run(&provider, "app", to: 2, state: { _ in state })) == expected, "\(state)")
        }
        var pie = Provider(fudgerSeed: 1)
        pie.register("app", request: .init(intervalMillis: 1000), grant: .init(precise: true, background: false, api: 28), now: Self.at(0))
        #expect(Self.seconds(Self.run(&pie, "app", to: 1800, state: { _ in .background })) == [0, 1800])
    }

    @Test("AN33: Android 10/11 give a While-using app a last location at most 20 min old; 12+ any age; never in the background")
    func an33LastLocation() {
        let last = Self.fix(0)
        func decide(_ api: Int, background: Bool, after seconds: Double, _ state: AndroidAppState = .foreground) -> LocationFix? {
            FusedRequestRules.lastLocation(last, now: Self.at(seconds), grant: .init(precise: true, background: background, api: api), state: state)
        }
        #expect(decide(30, background: false, after: 1200) == last)
        #expect(decide(30, background: false, after: 1200.001) == nil)
        #expect(decide(29, background: false, after: 1200.001) == nil)
        #expect(decide(31, background: false, after: 7200) == last)
        #expect(decide(30, background: true, after: 7200) == last)
        #expect(decide(34, background: false, after: 10, .background) == nil)
        #expect(decide(34, background: true, after: 10, .background) == last)
    }

    @Test("AN33, AN37: the last location of an approximate app is the device fudger's coarse fix, moved on only after 10 min")
    func an33CoarseLastLocation() {
        var provider = Provider(fudgerSeed: 9)
        provider.register("nav", request: .init(intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        _ = Self.run(&provider, "nav", to: 3)
        let coarse = provider.lastLocation(grant: Self.coarse, state: .foreground, now: Self.at(4))
        #expect(coarse?.horizontalAccuracy == 2000 && coarse?.altitude == nil && coarse?.time == Self.at(0))
        #expect(provider.lastLocation(grant: Self.fine, state: .foreground, now: Self.at(4)) == Self.fix(3))
        // AN37: a coarse fix exactly 10 min newer does not replace it; one a second later does.
        _ = Self.run(&provider, "nav", from: 4, to: 600)
        #expect(provider.lastLocation(grant: Self.coarse, state: .foreground, now: Self.at(600))?.time == Self.at(0))
        _ = Self.run(&provider, "nav", from: 601, to: 601)
        #expect(provider.lastLocation(grant: Self.coarse, state: .foreground, now: Self.at(601))?.time == Self.at(601))
    }

    @Test("AN35: getCurrentLocation answers at once with a last location at most 10 s old")
    func an35CurrentLocationAge() {
        var provider = Provider(fudgerSeed: 9)
        provider.register("nav", request: .init(intervalMillis: 1000), grant: Self.fine, now: Self.at(0))
        _ = Self.run(&provider, "nav", to: 0)
        #expect(provider.currentLocation(grant: Self.fine, state: .foreground, now: Self.at(10)) == Self.fix(0))
        #expect(provider.currentLocation(grant: Self.fine, state: .foreground, now: Self.at(10.001)) == nil)
        #expect(provider.currentLocation(grant: Self.fineForegroundOnly, state: .background, now: Self.at(1)) == nil)
    }

    @Test("AN29: when the trace goes back in time (a new replay, a loop), the provider and its requests begin again")
    func an29TimeGoingBack() {
        var provider = Provider(fudgerSeed: 1)
        provider.register("nav", request: .init(intervalMillis: 2000), grant: Self.fine, now: Self.at(0))
        #expect(Self.seconds(Self.run(&provider, "nav", from: 100, to: 104)) == [100, 102, 104])
        #expect(Self.seconds(Self.run(&provider, "nav", from: 0, to: 4)) == [0, 2, 4])
    }

    @Test("AN34: Android's builder checks: a passive request needs an explicit minimum; ranges are named")
    func an34RequestProblems() {
        #expect(FusedLocationRequest(priority: .passive, intervalMillis: 1000).problem?.contains("minUpdateIntervalMillis") == true)
        #expect(FusedLocationRequest(intervalMillis: -1).problem?.contains("intervalMillis") == true)
        #expect(FusedLocationRequest(intervalMillis: 1000, minUpdateDistanceMeters: -.infinity).problem?.contains("minUpdateDistanceMeters") == true)
        #expect(FusedLocationRequest(intervalMillis: 1000, maxUpdates: 0).problem?.contains("maxUpdates") == true)
        #expect(FusedLocationRequest(intervalMillis: 1000, durationMillis: 0).problem?.contains("durationMillis") == true)
        #expect(FusedLocationRequest(intervalMillis: 1000).problem == nil)
    }
}
