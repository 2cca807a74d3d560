import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces
import Testing

@testable import SextantHub
@testable import SextantServer

/// Issue 22.6: `trace plot --regions` draws each crossing where the daemon decides it. The
/// walk of Traces/shop-walk.jsonl is replayed by the hub to two apps' regions, and the
/// plot of the same walk with the same regions marks the same transitions of the same
/// regions at the same trace times, in the same order. Issue 23.3: `--gnss-profile` with a
/// seed draws the fixes the daemon reports with that profile and seed.
@Suite("Trace plot: what the daemon decides, drawn (issues 22.6, 23.3)", .timeLimit(.minutes(1)))
struct PlotRegionsAgreementTests {
    static let trace = RegionReplayTests.trace
    /// The shop (with a dwell), and for another app a circle about the walk's start that
    /// asks for its first state (R4), so that `state` is drawn too.
    static let regions = """
        [{"app": "com.example.shop", "identifier": "shop", "lat": 48.8566, "lon": 2.3522, "radius": 50, "loiteringDelay": 30},
         {"app": "com.example.start", "identifier": "start", "lat": 48.8548, "lon": 2.3522, "radius": 30, "notifyInitialState": true}]
        """

    /// `app identifier transition time`, in the order each app heard them.
    static func daemonEvents() async throws -> [String] {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        var apps: [(String, TestClient)] = []
        for entry in try PlotRegion.parse(regions, path: "regions.json") {
            let app = try await hub.connect(.app)
            _ = try await app.call(Method.hello, ["app": .string(entry.app)])
            _ = try await control.call(Method.permissionsSet, ["app": .string(entry.app), "status": "authorizedAlways"])
            let params = try JSONValue.parse(regions).arrayValue!.first { $0["app"]?.stringValue == entry.app }!
            _ = try await app.call(Method.regionMonitor, params)
            apps.append((entry.app, app))
        }
        _ = try await control.call(Method.replayStart, ["path": .string(trace), "speed": "max"])
        try await RegionReplayTests.playToTheEnd(hub, control, step: .milliseconds(1))
        var heard: [String] = []
        for (name, app) in apps {
            heard += try await app.drainEvents().filter { $0.method == Event.region }.map { event in
                let p = event.params
                return "\(name) \(p["identifier"]?.stringValue ?? "?") \(p["transition"]?.stringValue ?? "?") \(p["time"]?.stringValue ?? "?")"
            }
        }
        withExtendedLifetime(hub) {}
        return heard
    }

    /// The plot's crossing ticks on its regions lane, read from the SVG, app by app.
    static func plotted() throws -> [String] {
        let walk = try TraceLoader.load(path: trace)
        let plot = try TracePlot(trace: walk, title: "shop-walk.jsonl", regions: try PlotRegion.parse(regions, path: "regions.json"))
        let svg = plot.svg()
        let tick = try Regex(#"<line [^>]*class="region-crossing" data-t="([0-9.e+-]+)" data-region="([^"]+)" data-transition="([a-z]+)"><title>[^·]*· ([^ ]+) ·"#)
        let ticks = svg.matches(of: tick).map { match in
            let t = Double(match.output[1].substring!)!
            let time = walk.start.adding(nanoseconds: Int64((t * 1e9).rounded()))
            return (app: String(match.output[4].substring!), line: "\(match.output[4].substring!) \(match.output[2].substring!) \(match.output[3].substring!) \(time.rfc3339)")
        }
        // The daemon's events are gathered app by app; the plot's ticks are in time order.
        let apps = ticks.map(\.app).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
        return apps.flatMap { app in ticks.filter { $0.app == app }.map(\.line) }
    }

    @Test("issue 22.6: on shop-walk.jsonl the plot's crossings are the daemon's region events, with their trace times")
    func plotAgreesWithDaemon() async throws {
        let daemon = try await Self.daemonEvents()
        let plot = try Self.plotted()
        // The shop's, as RegionReplayTests works them out by hand; the start's first state
        // (inside at 0 s, R4) and its exit at 40 s, the first fix over 30 + 20 m away (R2).
        let shop = daemon.filter { $0.hasPrefix("com.example.shop ") }.map { $0.split(separator: " ") }.map { "\($0[2]) \($0[3].dropFirst(11).prefix(8))" }
        #expect(shop == RegionReplayTests.expected)
        #expect(daemon.filter { $0.hasPrefix("com.example.start ") }.prefix(2) == [
            "com.example.start start state 2026-03-01T08:00:00.000Z", "com.example.start start exit 2026-03-01T08:00:40.000Z",
        ], "\(daemon)")
        #expect(plot == daemon)
    }

    /// The fixes an app of the hub receives from the walk under `profile` and `seed`:
    /// `time lat lon hAcc`, to the wire's precision.
    static func daemonFixes(profile: String, seed: UInt64) async throws -> [String] {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.walk"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.walk", "status": "authorizedAlways"])
        _ = try await app.call(Method.locationStart)
        _ = try await control.call(Method.gnssProfile, ["profile": .string(profile), "seed": .int(Int64(seed))])
        _ = try await control.call(Method.replayStart, ["path": .string(trace), "speed": "max"])
        try await RegionReplayTests.playToTheEnd(hub, control, step: .milliseconds(1))
        let fixes = try await app.drainEvents().filter { $0.method == Event.location }.map { event in
            let p = event.params
            return line(p["time"]?.stringValue, p["lat"]?.doubleValue, p["lon"]?.doubleValue, p["hAcc"]?.doubleValue)
        }
        withExtendedLifetime(hub) {}
        return fixes
    }

    static func line(_ time: String?, _ lat: Double?, _ lon: Double?, _ hAcc: Double?) -> String {
        String(format: "%@ %.7f %.7f %.2f", time ?? "?", lat ?? .nan, lon ?? .nan, hAcc ?? .nan)
    }

    /// The fixes the plot's page hands its script (every one, for a trace this short).
    static func plottedFixes(profile: String, seed: UInt64) throws -> [String] {
        let spec = try GNSSProfileSpec.parse(profile).get()
        let page = try TracePlot(trace: try TraceLoader.load(path: trace), title: "shop-walk.jsonl", gnss: PlotGNSSProfile(spec: spec, seed: seed)).html()
        let data = try #require(page.firstRange(of: #"<script type="application/json" id="plot-data">"#).map { page[$0.upperBound...] })
        let json = try JSONValue.parse(String(data[..<data.firstRange(of: "</script>")!.lowerBound]))
        return (json["fixes"]?.arrayValue ?? []).map { fix in
            let f = fix.arrayValue ?? []
            return f.count < 9 ? "?" : line(f[7].stringValue, f[1].doubleValue, f[2].doubleValue, f[3].doubleValue)
        }
    }

    @Test("issue 23.3: with the same profile and seed the plot's reported track is the fixes the daemon sends, outages and all")
    func profileAgreesWithDaemon() async throws {
        let profile = "urban,tunnel@60+30"
        let daemon = try await Self.daemonFixes(profile: profile, seed: 7)
        let plot = try Self.plottedFixes(profile: profile, seed: 7)
        // 369 true fixes less the hot start (5 s), the tunnel and the hot start after it (35 s).
        #expect(daemon.count > 250 && daemon.count < 340, "\(daemon.count) fixes")
        #expect(plot == daemon)
        #expect(try Self.plottedFixes(profile: profile, seed: 8) != daemon, "another seed, other fixes")
    }
}
