import Foundation
import SextantProtocol
import SextantTestSupport

// What the Firefox test needs: Debian's firefox-esr, headless, on a profile of its own whose
// GeoClue provider talks to a test bus, and a page whose geolocation reports come back
// through a loopback server (Tools/dev/page-reporter.py), read from the page itself.

enum Firefox {
    static let program = "/usr/bin/firefox-esr"
    /// The DesktopId Firefox gives GeoClue: the app id Sextant knows it by.
    static let app = "firefox"
    static let requirement = Requirement.all([
        GeoClueClients.requirement, .tool(program, package: "firefox-esr"), .tool("/usr/bin/python3", package: "python3"),
    ])

    /// What a profile needs (docs/dbus.md, "Firefox"): the page's own permission granted
    /// (Sextant's prompt is the one that decides), GeoClue as the provider, no network one.
    static let preferences = [
        #"user_pref("geo.provider.use_geoclue", true);"#,
        #"user_pref("geo.provider.network.url", "");"#,
        #"user_pref("permissions.default.geo", 1);"#,
        #"user_pref("browser.shell.checkDefaultBrowser", false);"#,
        #"user_pref("datareporting.policy.dataSubmissionEnabled", false);"#,
        #"user_pref("app.update.enabled", false);"#,
    ]
}

/// One report the page sent: `loaded`, `position` (with the position) or `error`, numbered
/// by the page.
struct PageReport: Equatable {
    var seq: Int
    var kind: String
    var position: PrintedLocation?

    init?(_ line: Substring) {
        guard let value = try? JSONValue.parse(String(line)), let seq = value["seq"]?.intValue, let kind = value["kind"]?.stringValue else { return nil }
        self.seq = seq
        self.kind = kind
        if let latitude = value["lat"]?.doubleValue, let longitude = value["lon"]?.doubleValue, let accuracy = value["accuracy"]?.doubleValue {
            position = PrintedLocation(
                latitude: latitude, longitude: longitude, accuracy: accuracy, altitude: value["altitude"]?.doubleValue,
                speed: value["speed"]?.doubleValue, heading: value["heading"]?.doubleValue, timestamp: nil)
        }
    }
}

/// firefox-esr headless showing the reporter's page, on `bus` as its system bus.
final class FirefoxPage {
    private let reporter: ClientProcess
    private let browser: ClientProcess
    private let profile: String

    init(bus: GeoClueTestBus, directory: String) throws {
        let reporterScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Tools/dev/page-reporter.py").standardized.path
        reporter = try ClientProcess(["/usr/bin/python3", reporterScript], directory: directory, name: "page-reporter")
        let url = try reporter.waitForOutput(timeout: 30, "say where it listens") { output in
            output.split(separator: "\n").first { $0.hasPrefix("listening ") }.map { String($0.dropFirst("listening ".count)) }
        }
        profile = directory + "/firefox-profile"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        try (Firefox.preferences.joined(separator: "\n") + "\n").write(toFile: profile + "/user.js", atomically: true, encoding: .utf8)
        var environment = bus.environment
        environment["HOME"] = directory
        environment["MOZ_HEADLESS"] = "1"
        browser = try ClientProcess(
            [Firefox.program, "--headless", "--no-remote", "--profile", profile, url], directory: directory, name: "firefox",
            environment: environment)
    }

    deinit {
        stop(browser.process)
        // Its content processes, which outlive a killed parent for a moment.
        _ = try? run(["/usr/bin/pkill", "-KILL", "-f", "--", "-profile \(profile)"])
        stop(reporter.process)
    }

    /// Every report so far, in the page's order, only while none is missing (the server
    /// may print two reports sent at once in either order).
    func reports() -> [PageReport] {
        let all = reporter.output().split(separator: "\n").compactMap(PageReport.init).sorted { $0.seq < $1.seq }
        return Array(all.enumerated().prefix { $0.offset == $0.element.seq }.map(\.element))
    }

    /// Waits until the reports so far satisfy `found`; what it answers.
    func waitForReports<T>(_ what: String, timeout: Double = 90, _ found: ([PageReport]) -> T?) throws -> T {
        try poll(timeout: timeout, every: 0.05, failure: { "the page did not \(what) within \(timeout) s; it reported:\n\(self.reporter.output())\nFirefox said:\n\(self.browser.errors())" }) {
            if let answer = found(reports()) { return answer }
            guard browser.process.isRunning else { throw HarnessError("Firefox ended:\n\(browser.output())\n\(browser.errors())") }
            return nil
        }
    }
}
