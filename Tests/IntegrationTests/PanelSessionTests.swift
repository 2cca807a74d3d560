import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// A page's WebSocket on a real `sextant-panel` and a real daemon: control calls forwarded,
/// bad frames answered, events batched and bounded (issue 25, points 1 and 4).
@Suite(.serialized) struct PanelSessionTests {
    @Test func issue25_aControlCallIsForwardedAndADaemonsRefusalComesBackAsItsOwnError() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let socket = try panel.webSocket()
        socket.call(1, "status")
        #expect(try socket.answer(1)["result"]?["version"] == .string(sextantVersion))
        socket.call(2, "device.set", ["orientation": "landscapeLeft"])
        #expect(try socket.answer(2)["result"] == [:])
        // The same bad calls straight to control.sock: the page gets the daemon's very error.
        let control = try daemon.control()
        for (id, method, params) in [(3, "permissions.set", ["app": 5] as JSONValue), (4, "no.such.method", [:]), (5, "device.set", ["hingeAngle": 400])] {
            socket.call(id, method, params)
            let error = try socket.answer(id)["error"]
            do {
                _ = try control.call(method, params)
                Issue.record("\(method) was accepted")
            } catch .rpc(let expected) {
                #expect(error?["code"] == .int(Int64(expected.code)), "\(method)")
                #expect(error?["message"] == .string(expected.message), "\(method)")
            }
        }
    }

    @Test func issue25_sigtermEndsThePanelWhileAPageIsOpen() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let socket = try panel.webSocket()
        socket.call(1, "status")
        #expect(try socket.answer(1)["result"]?["version"] == .string(sextantVersion))
        kill(panel.reader.pid, SIGTERM)
        // Without an end to the page's session the server's graceful shutdown waits for the page.
        #expect(panel.reader.waitForExit(timeout: 30) != nil, "sextant-panel still runs 30 s after SIGTERM with a page open")
        withExtendedLifetime(socket) {}
    }

    @Test func issue25_badFramesAreAnsweredNamingWhatIsWrongAndTheSocketStaysOpen() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let socket = try panel.webSocket()
        let cases: [(String, Int64, String)] = [
            ("{\"id\": 1, \"method\": \"status\"", -32700, "not JSON"), ("[1, 2]", -32600, "JSON object"),
            ("{\"id\": 1, \"method\": 42}", -32600, "method"), ("{\"id\": 1, \"method\": \"status\", \"params\": [1]}", -32602, "params"),
            ("{\"id\": [1], \"method\": \"status\"}", -32600, "id"),
            ("{\"id\": 1, \"method\": \"status\", \"params\": {\"pad\": \"" + String(repeating: "x", count: 70_000) + "\"}}", -32600, "64 KiB"),
            ("{\"id\": 1, \"method\": \"watch\"}", -32601, "watch"),
        ]
        for (frame, code, words) in cases {
            socket.send(frame)
            let error = try socket.next { $0["error"] != nil }["error"]
            #expect(error?["code"] == .int(code), "\(frame.prefix(60))")
            #expect(error?["message"]?.stringValue?.contains(words) == true, "\(frame.prefix(60)): \(String(describing: error))")
        }
        socket.send(opcode: 2, [1, 2, 3])
        #expect(try socket.next { $0["error"] != nil }["error"]?["message"]?.stringValue?.contains("binary") == true)
        socket.call(9, "status")
        #expect(try socket.answer(9)["result"]?["version"] != nil)
        // Past the largest message read at all, the socket is closed (1009), the panel goes on.
        socket.send(Array(repeating: UInt8(ascii: " "), count: 1 << 21))
        #expect(try socket.next(timeout: 15) == nil || (try socket.next(timeout: 15)) == nil)
        let again = try panel.webSocket()
        again.call(1, "status")
        #expect(try again.answer(1)["result"] != nil)
    }

    @Test func issue25_atMost32RequestsAreInFlightPerPage() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let socket = try panel.webSocket()
        _ = try socket.next { $0["hello"] != nil }
        // A stopped daemon answers nothing: the first 32 wait, the 33rd is refused at once.
        defer { kill(daemon.process.processIdentifier, SIGCONT) }
        try stopProcess(pid: daemon.process.processIdentifier)
        for id in 1...33 { socket.call(id, "status") }
        let refused = try socket.next { $0["id"] != nil }
        #expect(refused["id"] == 33)
        #expect(refused["error"]?["code"] == -32000)
        #expect(refused["error"]?["message"] == "too many requests in flight")
        kill(daemon.process.processIdentifier, SIGCONT)
        var answered = Set<Int64>()
        while answered.count < 32 {
            let answer = try socket.next { $0["id"] != nil }
            #expect(answer["result"]?["version"] != nil)
            answered.insert(answer["id"]?.intValue.map(Int64.init) ?? 0)
        }
        #expect(answered == Set(1...32))
    }

    @Test func issue25_theDaemonsEventsReachThePageInOrderInBatches() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let socket = try panel.webSocket()
        _ = try socket.next { $0["hello"] != nil }
        let control = try daemon.control()
        // The panel is stopped while 200 fixes are published: its watch socket holds them,
        // and it reads them in a burst once it goes on.
        let panelPID = panel.reader.pid
        defer { kill(panelPID, SIGCONT) }
        try stopProcess(pid: panelPID)
        for index in 0..<200 { _ = try control.call("device.set", ["location": ["lat": .double(10 + Double(index) / 1000), "lon": 20]]) }
        kill(panelPID, SIGCONT)
        var latitudes: [Double] = []
        var frames = 0
        while latitudes.count < 200 {
            let frame = try socket.next { $0["events"] != nil }
            frames += 1
            for event in frame["events"]?.arrayValue ?? [] where event["method"] == "location" && event["params"]?["app"] == nil {
                latitudes.append(event["params"]?["lat"]?.doubleValue ?? .nan)
            }
        }
        #expect(latitudes == (0..<200).map { 10 + Double($0) / 1000 })
        // One frame per burst of the panel's reads at the most, never one per event.
        #expect(frames <= 25, "\(frames) frames for 200 events")
    }

    @Test func issue25_aPageThatDoesNotReadIsToldHowManyEventsItMissed() throws {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        let panel = try PanelProcess(daemon: daemon, folders: folders)
        let trace = folders.traces + "/long.jsonl"
        // 0.5 degree at 1000 m/s, a fix every millisecond: some 55 000 fixes, far more bytes
        // than the sockets between the panel and the page hold.
        let made = try SextantTestSupport.run([Binaries.sextantctl, "trace", "route", "0,0", "0.5,0", "--speed", "1000", "--interval", "0.001", "-o", trace])
        #expect(made.status == 0, "\(made.stderr)")
        let socket = try panel.webSocket(receiveBuffer: 4096)
        let control = try daemon.control()
        _ = try control.call("replay.start", ["path": .string(trace), "speed": "max"])
        _ = try poll(timeout: 60, failure: { "the replay did not finish" }) { () -> Bool? in
            (try? control.call("replay.status"))?["state"] == "finished" ? true : nil
        }
        var dropped = 0
        var events = 0
        while dropped == 0 {
            let frame = try socket.next { $0["events"] != nil }
            events += frame["events"]?.arrayValue?.count ?? 0
            dropped += frame["dropped"]?.intValue ?? 0
        }
        #expect(dropped > 0)
        #expect(events < 55_000)
    }

    @Test func issue25_2_thePanelOutlivesTheDaemonTellsThePageAndWatchesTheNextOne() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let socket = try panel.webSocket()
        _ = try socket.next { $0["hello"] != nil }
        #expect(daemon.terminate() == 0)
        let away = try socket.next(timeout: 30) { $0["daemon"] != nil }["daemon"]
        #expect(away?["reachable"] == false && away?["socket"] == .string(daemon.runtime + "/control.sock"), "\(String(describing: away))")
        socket.call(1, "status")
        let refused = try socket.answer(1)["error"]
        #expect(refused?["code"] == -32000 && refused?["message"]?.stringValue?.contains("not reachable") == true, "\(String(describing: refused))")
        // A page that opens while the daemon is away is told at once, after its hello.
        let late = try panel.webSocket()
        _ = try late.next { $0["hello"] != nil }
        #expect(try late.next { $0["daemon"] != nil }["daemon"]?["reachable"] == false)

        try daemon.restart()
        for page in [socket, late] { _ = try page.next(timeout: 30) { $0["daemon"]?["reachable"] == true } }
        socket.call(2, "status")
        #expect(try socket.answer(2)["result"]?["version"] == .string(sextantVersion))
        // The new daemon is watched: its events reach the page.
        _ = try daemon.control().call("device.set", ["location": ["lat": 12.5, "lon": 20]])
        let fix = try socket.next { frame in
            frame["events"]?.arrayValue?.contains { $0["method"] == "location" && $0["params"]?["lat"] == 12.5 } == true
        }
        #expect(fix["events"] != nil)
    }
}
