import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// gpsd's `SKY` on the gpsd face, read by the real gpsd clients (RULES N8, G6;
/// docs/gpsd.md "SKY").
@Suite("gpsd face: SKY to real gpsd clients (N8, G6)", .serialized, .requires(GPSDClients.requirement))
struct GPSDFaceSkyTests {
    /// A sky of three satellites (one BeiDou without a place), then two fixes: the trace's
    /// own sky comes first, so none is made up for it (N8).
    static let trace = """
        {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
        {"t":0,"sky":{"satellites":[{"constellation":"gps","svid":5,"el":41.2,"az":130.5,"cn0":38.5,"used":true},{"constellation":"galileo","svid":11,"el":12,"az":300,"cn0":22,"used":false},{"constellation":"beidou","svid":7,"cn0":0,"used":false}]}}
        {"t":0,"location":{"lat":48.0,"lon":2.35,"hAcc":4}}
        {"t":1,"location":{"lat":48.0001,"lon":2.35,"hAcc":4}}

        """

    /// The satellites as gpsd 3.22 lists them for that sky: PRN, el, az, ss, used, gnssid, svid.
    static let expected: [[String: JSONValue]] = [
        ["PRN": 5, "el": 41.2, "az": 130.5, "ss": 38.5, "used": true, "gnssid": 0, "svid": 5],
        ["PRN": 311, "el": 12.0, "az": 300.0, "ss": 22.0, "used": false, "gnssid": 2, "svid": 11],
        ["PRN": 407, "ss": 0.0, "used": false, "gnssid": 3, "svid": 7],
    ]

    @Test("N8, G6: gpspipe -w prints the trace's sky as gpsd's SKY, and Python's gps module reads it into session.satellites")
    func gpspipeAndPython() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["gpspipe", "python3"])
        let port = try daemon.gpsdFacePort()
        let script = """
            import gps, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1])
            session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON)
            for report in session:
                if report["class"] == "SKY":
                    for s in session.satellites:
                        print("%d %.1f %.1f %.1f %s" % (s.PRN, s.elevation, s.azimuth, s.ss, s.used), flush=True)
                    break
            """
        _ = try daemon.write("sky.py", script)
        // VERSION, DEVICES, WATCH, SKY, TPV, TPV: a client authorized before its watch hears no no-fix TPV.
        let gpspipe = try ClientProcess([GPSDClients.gpspipe, "-w", "-n", "6", "127.0.0.1:\(port)"], directory: daemon.directory, name: "gpspipe")
        let python = try ClientProcess([GPSDClients.python, daemon.directory + "/sky.py", String(port)], directory: daemon.directory, name: "python")
        try daemon.waitForGPSDWatchers(2)
        try daemon.replayAtMax(try daemon.write("sky.jsonl", Self.trace))

        let reports = try gpspipe.finish(timeout: 60).compactMap { try? JSONValue.parse($0) }
        #expect(reports.map { $0["class"]?.stringValue ?? "?" } == ["VERSION", "DEVICES", "WATCH", "SKY", "TPV", "TPV"], "\(reports)")
        let sky = try #require(reports.first { $0["class"] == "SKY" })
        #expect(sky["device"] == "/dev/sextant0" && sky["time"] == "2026-03-01T08:00:00.000Z" && sky["nSat"] == 3 && sky["uSat"] == 1, "\(sky)")
        #expect(sky["satellites"]?.arrayValue?.map { $0.objectValue ?? [:] } == Self.expected, "\(sky)")
        // Python's gps module marks what the report lacks with -999 (el, az of the BeiDou satellite).
        #expect(try python.finish(timeout: 60) == ["5 41.2 130.5 38.5 True", "311 12.0 300.0 22.0 False", "407 -999.0 -999.0 0.0 False"])
    }

    @Test("N8, L8: a client not authorized gets no SKY, from a made-up sky or the trace's own")
    func notAuthorizedNoSky() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        let app = try daemon.streamingApp("com.example.reference")
        let client = try GPSDFaceClient(port: try daemon.gpsdFacePort())
        client.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
        _ = try client.nextReport { $0["class"] == "WATCH" }
        try daemon.waitForGPSDWatchers(1)
        try daemon.replayAtMax(try daemon.write("sky.jsonl", Self.trace))
        _ = try app.locations(2)
        // A marker after everything the replay could have sent this client.
        client.send("?VERSION;\n")
        let seen = try client.reports { $0["class"] == "VERSION" }
        #expect(seen.allSatisfy { $0["class"] != "SKY" && !$0.isPositionTPV }, "\(seen)")
    }

    @Test("N8, L9: after a revoke's answer a watching client gets not one SKY more")
    func revokedNoSky() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowAlways"])
        let client = try GPSDFaceClient(port: try daemon.gpsdFacePort())
        client.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
        _ = try client.nextReport { $0["class"] == "WATCH" }
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 4000, step: 0.05))
        _ = try daemon.control().call(Method.replayStart, ["path": .string(trace), "speed": 20])
        for _ in 0..<2 { _ = try client.nextReport { $0["class"] == "SKY" } }
        _ = try daemon.control().call(Method.permissionsSet, ["app": .string("gpsd." + ownCommand()), "status": "denied"])
        _ = try client.reports { $0.isNoFixTPV }
        // 100 fixes more are 5 s of the trace's time: five made-up skies were due.
        let events = try daemon.control().call(Method.replayStatus)["events"]?.intValue ?? 0
        try daemon.waitForStatus("100 fixes more", timeout: 30) { status in (status["replay"]?["events"]?.intValue ?? 0) > events + 100 }
        client.send("?VERSION;\n")
        let after = try client.reports { $0["class"] == "VERSION" }
        #expect(after.allSatisfy { $0["class"] != "SKY" && !$0.isPositionTPV }, "\(after)")
    }

    @Test(
        "cgps, under tmux at 80×24 (the smallest it runs on), shows the position set by hand and its made-up sky in the satellite panel (N8, G6), as a screen capture",
        .requires(.tool("/usr/bin/cgps", package: "gpsd-clients"), .tool("/usr/bin/tmux", package: "tmux")))
    func cgpsScreen() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowAlways"])
        let tmux = ["/usr/bin/tmux", "-S", daemon.directory + "/tmux.sock"]
        // Foundation's Process reports a child's exit only when a pipe it shares with the
        // child closes, and the tmux server that the client forks keeps it open: the client
        // is started by a bash that first closes every descriptor above 2.
        let command = (tmux + ["new-session", "-d", "-x", "80", "-y", "24", "TERM=xterm /usr/bin/cgps 127.0.0.1:\(try daemon.gpsdFacePort())"])
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let started = try run(["/bin/bash", "-c", #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "# + command])
        #expect(started.status == 0, "tmux: \(started.stderr)")
        defer { _ = try? run(tmux + ["kill-server"]) }
        try daemon.waitForGPSDWatchers(1)
        #expect(try daemon.ctl(["location", "set", "48.8566", "2.3522", "--alt", "35"]).status == 0)
        let deadline = monotonicSeconds() + 15
        var screen = ""
        while monotonicSeconds() < deadline {
            screen = try run(tmux + ["capture-pane", "-p"]).stdout
            if screen.contains("48.85660000 N") && screen.contains("Seen 20/Used 20") { break }
            usleep(50_000)  // a terminal's screen has no event to wait on
        }
        #expect(screen.contains("Latitude:") && screen.contains("48.85660000 N"), "cgps showed:\n\(screen)")
        // A hand-set fix is simulated (N7): its TPV's status 8 is gpsd's STATUS_SIM, which cgps shows.
        #expect(screen.contains("2.35220000 E") && screen.contains("3D SIM FIX"), "cgps showed:\n\(screen)")
        // The satellite panel: the SKY's 20 satellites, a row each ("GP  5    5  41.2  130.5  38.5  Y").
        #expect(screen.contains("Seen 20/Used 20"), "cgps showed:\n\(screen)")
        let rows = screen.split(separator: "\n").filter { $0.contains(#/x(GP|GA|BD|GL|QZ|SB) +\d+ +\d+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +Y/#) }
        #expect(rows.count >= 10, "cgps showed:\n\(screen)")
    }
}
