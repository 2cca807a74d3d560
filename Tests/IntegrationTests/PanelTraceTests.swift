import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The panel's own methods (`panel.traces`, `panel.trace`, `panel.route`) and `--tiles`.
@Suite(.serialized) struct PanelTraceTests {
    @Test func issue25_thePageListsOpensAndPlaysTracesOfThePanelsFolder() throws {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        let made = try SextantTestSupport.run([Binaries.sextantctl, "trace", "route", "48.8583,2.2945", "48.8606,2.3376", "--speed", "10", "-o", folders.traces + "/walk.jsonl"])
        #expect(made.status == 0, "\(made.stderr)")
        try "not a trace".write(toFile: folders.traces + "/notes.md", atomically: true, encoding: .utf8)
        let panel = try PanelProcess(daemon: daemon, folders: folders)
        let socket = try panel.webSocket()
        socket.call(1, "panel.traces")
        let listed = try socket.answer(1)["result"]
        #expect(listed?["traces"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["walk.jsonl"])
        socket.call(2, "panel.trace", ["name": "walk.jsonl"])
        let trace = try #require(try socket.answer(2)["result"])
        #expect(trace["path"] == .string(folders.traces + "/walk.jsonl"))
        #expect((trace["duration"]?.doubleValue ?? 0) > 300)
        #expect(trace["fixes"]?.arrayValue?.first?["lat"]?.doubleValue == 48.8583)
        for (id, name) in [(3, "../secret.txt"), (4, "/etc/passwd"), (5, ".hidden")] {
            socket.call(id, "panel.trace", ["name": .string(name)])
            #expect(try socket.answer(id)["error"]?["code"] == -32602, "\(name)")
        }
        socket.call(6, "panel.trace", ["name": "missing.jsonl"])
        #expect(try socket.answer(6)["error"]?["code"] == 1006)

        socket.call(7, "panel.route", ["waypoints": [["lat": 48.85, "lon": 2.29], ["lat": 48.86, "lon": 2.30]], "speed": 5])
        #expect(try socket.answer(7)["result"] == [:])
        let status = try daemon.control().call("replay.status")
        #expect(status["state"] == "running")
        #expect(status["path"]?.stringValue?.contains("sextant-panel-route") == true)
        socket.call(8, "panel.route", ["waypoints": [["lat": 48.85, "lon": 2.29]]])
        #expect(try socket.answer(8)["error"]?["code"] == -32602)
        socket.call(9, "panel.route", ["waypoints": [["lat": 95, "lon": 2.29], ["lat": 48.86, "lon": 2.30]]])
        #expect(try socket.answer(9)["error"]?["message"]?.stringValue?.contains("waypoint 1") == true)
    }

    @Test func issue25_aTileTemplateIsTheOneOtherImageSourceThePolicyAllows() throws {
        let daemon = try DaemonHarness()
        let template = "https://{s}.tile.example/{z}/{x}/{y}.png"
        let panel = try PanelProcess(daemon: daemon, arguments: ["--tiles", template], folders: try PanelFolders())
        let reply = try panel.get("/")
        #expect(reply.header("Content-Security-Policy")?.contains("img-src 'self' data: https://*.tile.example;") == true)
        let config = try JSONValue.parse(try panel.get("/config.json", headers: [panel.authorization]).body)
        #expect(config["tiles"] == .string(template))
        let socket = try panel.webSocket()
        #expect(try socket.next { $0["hello"] != nil }["hello"]?["tiles"] == .string(template))
        let refused = try SextantTestSupport.run([Binaries.directory + "/sextant-panel", "--socket", daemon.runtime + "/control.sock", "--tiles", "javascript:alert(1)"])
        #expect(refused.status == 64)
    }

    @Test func issue36_10_aTraceNameThatLinksOutOfTheFolderIsRefused() throws {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        let outside = folders.scratch.file("outside.jsonl")
        try syntheticTrace(count: 11, step: 1).write(toFile: outside, atomically: true, encoding: .utf8)
        try syntheticTrace(count: 11, step: 1).write(toFile: folders.traces + "/inside.jsonl", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folders.traces + "/out.jsonl", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: folders.traces + "/alias.jsonl", withDestinationPath: "inside.jsonl")
        let panel = try PanelProcess(daemon: daemon, folders: folders)
        let socket = try panel.webSocket()
        socket.call(1, "panel.trace", ["name": "out.jsonl"])
        let refused = try socket.answer(1)["error"]
        #expect(refused?["code"] == -32602, "\(String(describing: refused))")
        #expect(refused?["message"]?.stringValue?.contains("leads out of the traces folder") == true, "\(String(describing: refused))")
        // A link that stays inside is the file it names.
        socket.call(2, "panel.trace", ["name": "alias.jsonl"])
        #expect(try socket.answer(2)["result"]?["path"] == .string(folders.traces + "/inside.jsonl"))
    }

    @Test func issue36_10_theTracesFolderIsTheCheckoutsTracesNotTheCurrentDirectory() throws {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        let elsewhere = folders.scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try syntheticTrace(count: 11, step: 1).write(toFile: elsewhere + "/private.jsonl", atomically: true, encoding: .utf8)
        let panel = try PanelProcess(daemon: daemon, folders: folders, traces: false, directory: elsewhere)
        let socket = try panel.webSocket()
        socket.call(1, "panel.traces")
        let listed = try #require(try socket.answer(1)["result"])
        #expect(listed["dir"] == .string(Repository.root + "/Traces"), "\(listed)")
        #expect(listed["traces"]?.arrayValue?.contains { $0["name"] == "private.jsonl" } == false)
    }
}
