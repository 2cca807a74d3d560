import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 43.2 and 43.3: the map offline (GSHHG's coastlines from Debian's gmt-gshhg-low,
/// made into the panel's base map by Tools/dev/make-basemap.py), a place typed and gone to,
/// the first view on the device, and the controls beside the map, in Debian's Chromium
/// against the real daemon and panel. Each control's outcome is read from the daemon.
@Suite(
    "The panel's offline map and the controls beside it (issue 43.2, 43.3)", .serialized,
    .requires(.all([Panel.requirement, .file(Panel.gshhg, package: "gmt-gshhg-low"), .file("/usr/lib/python3/dist-packages/netCDF4/__init__.py", package: "python3-netcdf4")])))
final class PanelMapControlsTests {
    static let app = "com.example.panel.map"
    let daemon: DaemonHarness
    let folders: PanelFolders
    let panel: PanelProcess
    let browser: PanelBrowser
    /// The device's fix before the page opens: Zürich.
    let start = (lat: 47.3769, lon: 8.5417)

    init() throws {
        daemon = try DaemonHarness()
        folders = try PanelFolders()
        let basemap = folders.scratch.file("basemap.geojson")
        let made = try run(["/usr/bin/python3", Repository.root + "/Tools/dev/make-basemap.py", basemap])
        guard made.status == 0 else { throw HarnessError("make-basemap.py: \(made.stderr)") }
        try syntheticTrace(count: 601, step: 0.1).write(toFile: folders.traces + "/walk.jsonl", atomically: true, encoding: .utf8)
        _ = try daemon.control().call(Method.deviceSet, ["location": ["lat": .double(start.lat), "lon": .double(start.lon)]])
        panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage + ["--basemap", basemap], folders: folders)
        browser = try PanelBrowser(panel: panel, directory: daemon.directory, size: (1366, 768))
        try browser.step(["do": "open"])
    }

    func status() throws -> JSONValue { try daemon.control().call(Method.status) }

    func mapCentre() throws -> (lat: Double, lon: Double, zoom: Double) {
        let value = try browser.step(["do": "waitFor", "expression": "(() => { const c = sextantPanel.map.getCenter(); return [c.lat, c.lng, sextantPanel.map.getZoom()]; })()"])["value"]
        let numbers = value?.arrayValue?.compactMap(\.doubleValue) ?? []
        guard numbers.count == 3 else { throw HarnessError("the map's centre and zoom: \(String(describing: value))") }
        return (numbers[0], numbers[1], numbers[2])
    }

    @Test("issue 43.2: the first view is the device's last fix, close up; the coastlines are drawn offline; a place typed in the box with go is shown")
    func offlineMapFirstViewAndGo() throws {
        let first = try mapCentre()
        #expect(abs(first.lat - start.lat) < 1e-3 && abs(first.lon - start.lon) < 1e-3 && first.zoom >= 15, "first view \(first)")
        // The base map's lines, from GSHHG: the coast, lakes, borders.
        let kinds = try browser.step(["do": "waitFor", "expression": "(() => { const k = []; sextantPanel.map.eachLayer((l) => { if (l.feature) k.push(l.feature.properties.kind); }); return k.length ? [...new Set(k)].sort().join(',') : null; })()"])
        #expect(kinds["value"] == "border,coast,lake", "\(kinds)")
        let cost = try browser.step(["do": "waitFor", "expression": "Math.round(sextantPanel.panelMap.basemapMs)"])
        print("offline base map: fetched, parsed and drawn in \(cost["value"]?.serialized() ?? "?") ms")
        // The Strait of Gibraltar.
        try browser.step(["do": "type", "selector": "#goto-coordinates", "text": "36.0, -5.6"])
        try browser.step(["do": "waitFor", "expression": "Math.abs(sextantPanel.map.getCenter().lat - 36.0) < 1e-6 && Math.abs(sextantPanel.map.getCenter().lng + 5.6) < 1e-6"])
        try browser.step(["do": "waitFor", "expression": "(sextantPanel.map.setZoom(7, {animate: false}), true)"])
        try browser.step(["do": "screenshot", "name": "offline-map"])
        let problems = try browser.step(["do": "problems"])["problems"]?.arrayValue ?? []
        #expect(problems.isEmpty, "console errors or CSP violations: \(problems)")
    }

    @Test("issue 43.3: the GNSS preset chosen is the daemon's profile, and Tunnel now sets PRESET,tunnel@0+SECONDS")
    func gnssProfileAndTunnel() throws {
        try browser.step(["do": "choose", "selector": "#gnss-preset", "value": "urban"])
        try daemon.waitForStatus("the urban profile") { $0["gnss"]?["profile"] == "urban" }
        try browser.step(["do": "click", "selector": "#gnss-tunnel"])
        try daemon.waitForStatus("a tunnel from now") { $0["gnss"]?["profile"] == "urban,tunnel@0+15" }
        try browser.step(["do": "waitFor", "expression": "document.getElementById('gnss-state').textContent === 'profile urban,tunnel@0+15'"])
    }

    @Test("issue 43.3, O4a: a click on the compass rose's east holds the heading at 90° magnetic, as sextantctl heading set 90 does; release gives it back")
    func compassRoseHoldsTheHeading() throws {
        let rose = try browser.step(["do": "waitFor", "expression": "document.getElementById('compass').getBoundingClientRect().width"])
        let radius = (rose["value"]?.doubleValue ?? 120) / 2
        try browser.step(["do": "clickAt", "selector": "#compass", "dx": .double(radius * 0.7), "dy": 0])
        try daemon.waitForStatus("a heading held at 90°") { status in
            status["held"]?.arrayValue?.contains("compass") == true && status["heading"]?["magnetic"]?.doubleValue.map { abs($0 - 90) < 1.5 } == true
        }
        try browser.step(["do": "click", "selector": "#heading-release"])
        try daemon.waitForStatus("the heading released") { $0["held"]?.arrayValue?.contains("compass") == false }
    }

    @Test("issue 43.3: Draw circle then a click on the map adds a region for the chosen app there (regions.add), drawn with its state")
    func drawnRegionIsTheApps() throws {
        let (app, _) = try daemon.app(Self.app)
        _ = try daemon.control().call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways"])
        try browser.step(["do": "choose", "selector": "#region-app", "value": .string(Self.app)])
        try browser.step(["do": "click", "selector": "#region-draw"])
        try browser.step(["do": "waitFor", "expression": "document.getElementById('map').classList.contains('drawing')"])
        let clicked = try browser.step(["do": "clickMap", "dx": 60, "dy": 40])
        let lat = try #require(clicked["lat"]?.doubleValue), lon = try #require(clicked["lon"]?.doubleValue)
        var regions: [JSONValue] = []
        _ = try poll(timeout: 15, failure: { "no region for \(Self.app): \(regions)" }) { () -> Bool? in
            regions = try daemon.control().call(Method.regionsList, ["app": .string(Self.app)]).arrayValue ?? []
            return regions.isEmpty ? nil : true
        }
        #expect(abs((regions[0]["lat"]?.doubleValue ?? 0) - lat) < 1e-9 && abs((regions[0]["lon"]?.doubleValue ?? 0) - lon) < 1e-9, "\(regions) for a click at \(lat), \(lon)")
        #expect(regions[0]["radius"]?.doubleValue == 200)
        // The device stays where it was: the click drew the region, it did not move the device.
        #expect(try status()["location"]?["lat"]?.doubleValue.map { abs($0 - start.lat) < 1e-9 } == true)
        // Its state beside the tool: the region's identifier and inside, outside or unknown.
        let identifier = regions[0]["identifier"]?.stringValue ?? "?"
        try browser.step(["do": "waitFor", "expression": .string("/^\(identifier) (inside|outside|unknown)/.test(document.getElementById('region-state').textContent)")])
        // The next fix decides the first state (5 km north: outside), the one after is a
        // crossing (the region's centre: enter), said beside the region.
        _ = try daemon.control().call(Method.deviceSet, ["location": ["lat": .double(lat + 0.05), "lon": .double(lon)]])
        try browser.step(["do": "waitFor", "expression": .string("document.getElementById('region-state').textContent.startsWith('\(identifier) outside; last: \(identifier) state')")])
        _ = try daemon.control().call(Method.deviceSet, ["location": ["lat": .double(lat), "lon": .double(lon)]])
        try browser.step(["do": "waitFor", "expression": .string("document.getElementById('region-state').textContent.startsWith('\(identifier) inside; last: \(identifier) enter')")])
        try browser.step(["do": "waitFor", "expression": "(() => { let n = 0; sextantPanel.map.eachLayer((l) => { if (l.getTooltip && l.getTooltip() && /^com.example.panel.map: panel-\\w+ \\(inside\\), 200 m$/.test(l.getTooltip().getContent())) n++; }); return n === 1; })()"])
        withExtendedLifetime(app) {}
    }

    @Test("issue 43.3: a session event is a sentence in the log, not JSON; opening a trace fits its whole track in view")
    func sessionSentenceAndTraceFit() throws {
        let (app, _) = try daemon.app(Self.app)
        let row = "document.querySelector('#log-table tr[data-kind=\"session\"][data-app=\"\(Self.app)\"] td.detail')"
        let detail = try browser.step(["do": "waitFor", "expression": .string("\(row) && \(row).textContent")])
        let text = detail["value"]?.stringValue ?? ""
        #expect(text.hasPrefix("connected: session ") && !text.contains("{"), "\(text)")
        try browser.step(["do": "click", "selector": "#trace-refresh"])
        try browser.step(["do": "choose", "selector": "#trace-list", "value": "walk.jsonl"])
        try browser.step(["do": "click", "selector": "#replay-open"])
        // The walk goes 6 km north of 48.0, 2.35: its ends both in view.
        try browser.step(["do": "waitFor", "expression": "sextantPanel.map.getBounds().contains([48.0, 2.35]) && sextantPanel.map.getBounds().contains([48.06, 2.35])"])
        withExtendedLifetime(app) {}
    }
}
