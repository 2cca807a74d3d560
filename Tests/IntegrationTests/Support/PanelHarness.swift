import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport

// What the panel's browser test needs beside PanelProcess: Debian's Chromium using the page
// through Tools/dev/panel-browser.py, one step at a time.

enum Panel {
    static let chromium = "/usr/bin/chromium"
    static let leaflet = "/usr/share/javascript/leaflet"
    static let requirement = Requirement.all([
        .tool(chromium, package: "chromium"), .tool("/usr/bin/python3", package: "python3"), .file(leaflet + "/leaflet.js", package: "libjs-leaflet"),
    ])
    /// The page of the source tree and Debian's Leaflet, over PanelFolders' stand-ins.
    static let realPage = ["--assets", Repository.root + "/web/panel", "--leaflet", leaflet]
    /// GSHHG as Debian's gmt-gshhg-low installs it, read by Tools/dev/make-basemap.py.
    static let gshhg = "/usr/share/gmt-gshhg/binned_GSHHS_l.nc"
}

/// Tools/dev/panel-browser.py driving headless Chromium on the panel's page: each `step` sends
/// one command and waits for its answer line.
final class PanelBrowser {
    private let process = Process()
    private let input = Pipe()
    private let outputPath: String
    private var answered = 0
    /// The panel the page is served by, held as long as the browser (``init(panel:directory:size:)``).
    private var panel: PanelProcess?

    /// `size`: the window's width and height in CSS pixels (the driver's default 1500×1000).
    init(url: String, directory: String, size: (Int, Int)? = nil, screenshots: String? = ProcessInfo.processInfo.environment["SEXTANT_PANEL_SCREENSHOTS"]) throws {
        outputPath = directory + "/panel-browser.out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: outputPath + ".err", contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Repository.root + "/Tools/dev/panel-browser.py", url] + (screenshots.map { ["--screenshot", $0] } ?? [])
            + (size.map { ["--width", String($0.0), "--height", String($0.1)] } ?? [])
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: outputPath + ".err")
        try launch(process)
    }

    /// The panel's own page; a step that fails says how the panel is then.
    convenience init(panel: PanelProcess, directory: String, size: (Int, Int)? = nil) throws {
        try self.init(url: panel.url, directory: directory, size: size)
        self.panel = panel
    }

    /// Ends the driver by closing its input, so that it closes Chromium (a killed driver
    /// would leave Chromium behind); killed only when it does not end within 20 s.
    deinit {
        try? input.fileHandleForWriting.close()
        _ = try? poll(timeout: 20, failure: { "" }) { process.isRunning ? nil : () }
        stop(process)
    }

    private func lines() -> [Substring] {
        ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").split(separator: "\n")
    }

    /// Sends `command` (its "do" and arguments) and answers the driver's reply; a step the
    /// page could not do (no such element, a wait that ran out) throws with the driver's words.
    @discardableResult
    func step(_ command: [String: JSONValue], timeout: Double = 90) throws -> JSONValue {
        try input.fileHandleForWriting.write(contentsOf: Data((JSONValue.object(command).serialized() + "\n").utf8))
        let index = answered
        answered += 1
        let line = try poll(timeout: timeout, every: 0.01, failure: { "panel-browser.py did not answer \(command) within \(timeout) s:\n\(self.errors())" }) {
            let all = lines()
            if all.count > index { return String(all[index]) }
            guard process.isRunning else { throw HarnessError("panel-browser.py ended:\n\(errors())") }
            return nil
        }
        let answer = try JSONValue.parse(line)
        guard answer["ok"] == true else {
            throw HarnessError("the page could not \(command): \(answer["error"]?.stringValue ?? line)" + (panel.map { " (\($0.condition))" } ?? ""))
        }
        return answer
    }

    func errors() -> String { (try? String(contentsOfFile: outputPath + ".err", encoding: .utf8)) ?? "" }
}
