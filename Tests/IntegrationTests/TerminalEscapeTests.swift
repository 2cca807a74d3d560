import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 36.11: what an app wrote (a region's identifier, its app id) reaches a terminal
/// escaped, from `sextantctl` and in the daemon's log, never as the control characters
/// themselves.
@Suite("What apps wrote, escaped before a terminal")
struct TerminalEscapeTests {
    /// Clears the screen, returns to the line's start and makes a line of its own.
    static let hostile = "shop\u{1B}[2J\r\nfake\u{202E}"

    @Test("sextantctl regions list: a region id with ESC, CR, LF and a bidi override is one escaped cell; --json is the same JSON, escaped")
    func regionsList() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "set", "com.example.shop", "authorizedAlways"]).status == 0)
        let (app, _) = try daemon.app("com.example.shop")
        _ = try app.call(Method.regionMonitor, ["identifier": .string(Self.hostile), "lat": 48.0, "lon": 2.0, "radius": 100])
        let list = try daemon.ctl(["regions", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(!list.stdout.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(list.stdout.debugDescription)")
        #expect(list.stdout.contains(#"shop\x1b[2J\r\nfake\u{202e}"#), "\(list.stdout)")
        #expect(list.stdout.split(separator: "\n").count == 2, "the header and one row: \(list.stdout)")
        let json = try daemon.ctl(["regions", "list", "--json"])
        #expect(!json.stdout.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(json.stdout.debugDescription)")
        #expect(try JSONValue.parse(json.stdout).arrayValue?.first?["identifier"] == .string(Self.hostile))
        let stop = try daemon.ctl(["regions", "remove", Self.hostile + "x", "--app", "com.example.shop"])
        #expect(!stop.stderr.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(stop.stderr.debugDescription)")
    }

    @Test("The daemon's log and sextantctl's error: a path with ESC, BEL and a newline is written escaped, one line each")
    func daemonLogAndError() throws {
        let daemon = try DaemonHarness()
        let path = "/nonexistent/x\u{1B}]0;owned\u{07}\nforged.jsonl"
        let start = try daemon.ctl(["replay", "start", path])
        #expect(start.status != 0)
        #expect(start.stderr.contains(#"x\x1b]0;owned\x07\nforged.jsonl"#), "\(start.stderr.debugDescription)")
        #expect(start.stderr.split(separator: "\n").count == 1 && !start.stderr.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(start.stderr.debugDescription)")
        #expect(daemon.terminate() == 0)
        let log = daemon.log()
        #expect(log.contains(#"path=/nonexistent/x\x1b]0;owned\x07\nforged.jsonl"#), "\(log)")
        #expect(!log.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(log.debugDescription)")
        #expect(!log.contains("\nforged"), "\(log)")
    }
}
