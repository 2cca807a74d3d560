import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The real daemon on a store damaged from outside: it refuses to start (exit 1), says which
/// table, row and column is wrong, and leaves the file as it found it.
@Suite("Damaged store")
struct DamagedStoreTests {
    /// A store written by a real daemon: one app granted reduced accuracy that has had a fix
    /// (so it has a grid offset), the switch off.
    private func storeFromDaemon() throws -> DaemonHarness {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.coarse", "--approximate"]).status == 0)
        let (app, _) = try daemon.app("com.example.coarse")
        _ = try app.call(Method.locationStart)
        #expect(try daemon.ctl(["location", "set", "48.8566", "2.3522"]).status == 0)
        _ = try app.nextEvent(timeout: 10, description: "the first reduced fix") { $0.method == Event.location }
        #expect(try daemon.ctl(["regions", "add", "shop", "--app", "com.example.coarse", "--lat", "48.8566", "--lon", "2.3522", "--radius", "100"]).status == 0)
        #expect(try daemon.ctl(["services", "off"]).status == 0)
        #expect(daemon.terminate() == 0)
        return daemon
    }

    /// Starts sextantd on the damaged store. It must stop at once; `timeout` ends (status
    /// 124) a daemon that wrongly starts, so that the test fails instead of waiting forever.
    private func startDaemon(on daemon: DaemonHarness) throws -> CommandResult {
        try run(["/usr/bin/timeout", "60", Binaries.sextantd, "--runtime-dir", daemon.runtime, "--state-dir", daemon.state, "--no-iio", "--no-gpsd"])
    }

    private func sqlite(_ path: String, _ sql: String) throws {
        let result = try run(["/usr/bin/sqlite3", path, sql])
        try #require(result.status == 0, "sqlite3: \(result.stderr)")
    }

    @Test(
        "L2 L10: sextantd refuses a store with a bad value, naming table, row and column",
        arguments: [
            ("UPDATE fudge_offset SET east = 1e308", "table fudge_offset, row 1 (app \"com.example.coarse\"), column east"),
            ("UPDATE fudge_offset SET north = 'far'", "table fudge_offset, row 1 (app \"com.example.coarse\"), column north"),
            ("UPDATE setting SET value = 'maybe' WHERE key = 'servicesEnabled'", "table setting, row 2 (key \"servicesEnabled\"), column value"),
            ("UPDATE region SET radius = 0.5", "table region, row 1 (app \"com.example.coarse\"), column radius: \"radius\" must be within 1...100000 m"),
            ("UPDATE region SET notify_entry = 'yes'", "table region, row 1 (app \"com.example.coarse\"), column notify_entry"),
        ])
    func damagedValueStopsTheDaemon(sql: String, place: String) throws {
        let daemon = try storeFromDaemon()
        let file = daemon.state + "/sextant.sqlite3"
        try sqlite(file, sql)
        let before = try run(["/usr/bin/sqlite3", file, ".dump"]).stdout
        let result = try startDaemon(on: daemon)
        #expect(result.status == 1)
        #expect(result.stderr.contains(file), "\(result.stderr)")
        #expect(result.stderr.contains(place), "\(result.stderr)")
        #expect(try run(["/usr/bin/sqlite3", file, ".dump"]).stdout == before, "the store's content is left as it was")
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/app.sock"))
    }

    @Test("L2: sextantd refuses a 0-byte store instead of starting with every permission gone")
    func emptyStoreStopsTheDaemon() throws {
        let daemon = try storeFromDaemon()
        let file = daemon.state + "/sextant.sqlite3"
        #expect(truncate(file, 0) == 0)
        let result = try startDaemon(on: daemon)
        #expect(result.status == 1)
        #expect(result.stderr.contains(file) && result.stderr.contains("empty (0 bytes)"), "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int == 0)
    }
}
