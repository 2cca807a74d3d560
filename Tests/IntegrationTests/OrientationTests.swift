import Foundation
import SextantClient
import SextantProtocol
import Testing

/// Device orientation, interface orientation and posture through the real daemon: values set
/// with sextantctl or replayed from a trace go through the same judge and engines.
@Suite("Orientation and posture through the real daemon")
struct OrientationTests {
    /// An app that said hello and subscribed to orientation events.
    private func orientedApp(_ daemon: DaemonHarness, _ id: String = "com.example.game", orientations: [String]? = nil) throws -> (SextantConnection, JSONValue) {
        let (app, hello) = try daemon.app(id, orientations: orientations)
        _ = try app.call(Method.orientationStart)
        return (app, hello)
    }

    private func nextEvent(_ app: SextantConnection, _ method: String) throws -> JSONValue {
        try app.nextEvent(timeout: 10, description: "a \(method) event") { $0.method == method }.params
    }

    /// Every event that arrived before the answer to a round trip: the daemon writes an
    /// event caused by a change before it reads the next request, so this is a barrier.
    private func eventsBeforeBarrier(_ app: SextantConnection) throws -> [ServerEvent] {
        _ = try app.call(Method.authorizationGet)
        return try app.takeEvents()
    }

    @Test("O6 O7 O4a: rotate by hand; the judge decides; device landscapeLeft gives interface landscapeRight")
    func rotateByHand() throws {
        let daemon = try DaemonHarness()
        let (app, hello) = try orientedApp(daemon)
        #expect(hello["deviceOrientation"] == "unknown")
        #expect(hello["interfaceOrientation"] == "portrait", "O6: unknown counts as portrait")

        #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
        let device = try nextEvent(app, Event.deviceOrientation)
        #expect(device["orientation"] == "landscapeLeft")
        #expect(device["previous"] == "unknown", "O4: the first event's previous is unknown")
        let interface = try nextEvent(app, Event.interfaceOrientation)
        #expect(interface["orientation"] == "landscapeRight")
        #expect(interface["previous"] == "portrait")

        // O7: a 180° turn moves the interface in one step.
        #expect(try daemon.ctl(["rotate", "landscapeRight"]).status == 0)
        #expect(try nextEvent(app, Event.deviceOrientation)["orientation"] == "landscapeRight")
        let turned = try nextEvent(app, Event.interfaceOrientation)
        #expect(turned["orientation"] == "landscapeLeft" && turned["previous"] == "landscapeRight")

        let status = try daemon.control().call(Method.status)
        #expect(status["deviceOrientation"] == "landscapeRight")
        let apps = try daemon.control().call(Method.appsList)
        #expect(apps.arrayValue?.first?["interfaceOrientation"] == "landscapeLeft")
    }

    @Test("O3 O4a: faceUp set by hand is decided after 500 ms of the held gravity, and changes no interface")
    func faceUpByHand() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try orientedApp(daemon)
        let before = Timestamp(seconds: Date().timeIntervalSince1970)
        #expect(try daemon.ctl(["rotate", "faceUp"]).status == 0)
        let device = try nextEvent(app, Event.deviceOrientation)
        #expect(device["orientation"] == "faceUp")
        let decided = try #require(device["time"]?.stringValue.flatMap { Timestamp(rfc3339: $0) })
        #expect(decided.nanoseconds - before.nanoseconds >= 500_000_000, "O3: tilt ≥ 80 on every sample of the last 500 ms")
        #expect(try eventsBeforeBarrier(app).allSatisfy { $0.method != Event.interfaceOrientation })
    }

    @Test("accel X Y Z holds a reading that the judge decides from, like a sensor at rest")
    func accelByHand() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try orientedApp(daemon)
        // Upside down, leaned back 20°: gravity reaction along -y and +z.
        let g = 9.80665, tilt = 20.0 * .pi / 180
        let result = try daemon.ctl(["accel", "0", "\(-g * cos(tilt))", "\(g * sin(tilt))"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try nextEvent(app, Event.deviceOrientation)["orientation"] == "portraitUpsideDown")
        // A phone does not show portraitUpsideDown: the interface stays where it was.
        #expect(try eventsBeforeBarrier(app).allSatisfy { $0.method != Event.interfaceOrientation })
        #expect(try daemon.ctl(["accel", "release"]).status == 0)
        #expect(try daemon.ctl(["accel", "1", "2"]).status != 0)
    }

    @Test("O8 O9a: an app that freezes its interface gets device events only; unfreezing moves it before the response")
    func interfaceLocked() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try orientedApp(daemon)
        let frozen = try app.call(Method.appUpdate, ["interfaceLocked": true])
        #expect(frozen["interfaceOrientation"] == "portrait")
        #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
        #expect(try nextEvent(app, Event.deviceOrientation)["orientation"] == "landscapeLeft")
        #expect(try eventsBeforeBarrier(app).allSatisfy { $0.method != Event.interfaceOrientation })

        let id = try app.send(Method.appUpdate, ["interfaceLocked": false])
        let answer = try app.response(to: id)
        #expect(answer["interfaceOrientation"] == "landscapeRight")
        let moved = try app.takeEvents().filter { $0.method == Event.interfaceOrientation }
        #expect(moved.map(\.params) == [["orientation": "landscapeRight", "previous": "portrait"]], "O9a: the event comes before the response")
    }

    @Test("O9: the system rotation lock freezes every app; turning it off moves them at once")
    func rotationLock() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try orientedApp(daemon)
        #expect(try daemon.ctl(["rotation-lock", "on"]).status == 0)
        #expect(try daemon.ctl(["rotate", "landscapeRight"]).status == 0)
        #expect(try nextEvent(app, Event.deviceOrientation)["orientation"] == "landscapeRight")
        #expect(try eventsBeforeBarrier(app).allSatisfy { $0.method != Event.interfaceOrientation })

        // O9: a launch under the lock takes the device as portrait.
        let (late, lateHello) = try orientedApp(daemon, "com.example.late")
        #expect(lateHello["interfaceOrientation"] == "portrait")

        #expect(try daemon.ctl(["rotation-lock", "off"]).status == 0)
        let moved = try nextEvent(app, Event.interfaceOrientation)
        #expect(moved["orientation"] == "landscapeLeft" && moved["previous"] == "portrait")
        #expect(try nextEvent(late, Event.interfaceOrientation)["orientation"] == "landscapeLeft")
        #expect(try daemon.control().call(Method.status)["rotationLock"] == false)
    }

    @Test("O6: a landscape-only app launches Home-right, unless the device is already in a landscape")
    func landscapeOnlyLaunch() throws {
        let daemon = try DaemonHarness()
        let (_, first) = try orientedApp(daemon, "com.example.racer", orientations: ["landscapeLeft", "landscapeRight"])
        #expect(first["interfaceOrientation"] == "landscapeRight")
        #expect(try daemon.ctl(["rotate", "landscapeRight"]).status == 0)
        // The judge decides some 40 ms of samples later: wait for the decision itself (an
        // app subscribing after it would wait for an event that already went).
        try daemon.waitForStatus("device landscapeRight") { $0["deviceOrientation"] == "landscapeRight" }
        let (_, second) = try orientedApp(daemon, "com.example.racer2", orientations: ["landscapeLeft", "landscapeRight"])
        #expect(second["interfaceOrientation"] == "landscapeLeft", "device landscapeRight goes with interface landscapeLeft")
    }

    @Test("O10: dropping the current orientation from the supported set moves the app at once, as at launch")
    func supportedSetChange() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try orientedApp(daemon)
        let answer = try app.call(Method.appUpdate, ["orientations": ["landscapeLeft"]])
        #expect(answer["interfaceOrientation"] == "landscapeLeft")
        let events = try app.takeEvents().filter { $0.method == Event.interfaceOrientation }
        #expect(events.map(\.params) == [["orientation": "landscapeLeft", "previous": "portrait"]])
        // An empty effective set is refused.
        let error = try rpcError { try app.call(Method.appUpdate, ["orientations": ["portraitUpsideDown"]]) }
        #expect(error?.code == -32602)
    }

    @Test("O11: a background app gets no interface events and jumps in one event on return")
    func backgroundApp() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try orientedApp(daemon)
        _ = try app.call(Method.appUpdate, ["state": "background"])
        #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
        _ = try nextEvent(app, Event.deviceOrientation)
        #expect(try daemon.ctl(["rotate", "landscapeRight"]).status == 0)
        _ = try nextEvent(app, Event.deviceOrientation)
        #expect(try eventsBeforeBarrier(app).allSatisfy { $0.method != Event.interfaceOrientation })
        let answer = try app.call(Method.appUpdate, ["state": "foreground"])
        #expect(answer["interfaceOrientation"] == "landscapeLeft")
        let jumps = try app.takeEvents().filter { $0.method == Event.interfaceOrientation }
        #expect(jumps.map(\.params) == [["orientation": "landscapeLeft", "previous": "portrait"]])
    }

    @Test("P1–P4: the hinge by hand on a foldable: first decision with previous null, hysteresis, fold direction")
    func postureByHand() throws {
        let daemon = try DaemonHarness(arguments: ["--profile", "foldable"])
        let (app, hello) = try daemon.app("com.example.reader")
        #expect(hello["posture"] == .null)
        _ = try app.call(Method.postureStart)
        _ = try app.call(Method.orientationStart)

        #expect(try daemon.ctl(["hinge", "90"]).status == 0)
        let first = try nextEvent(app, Event.posture)
        #expect(first["state"] == "halfOpened" && first["previous"] == .null && first["fold"] == "vertical")
        #expect(first["hingeAngle"]?.doubleValue == 90)

        #expect(try daemon.ctl(["hinge", "140"]).status == 0)
        #expect(try daemon.ctl(["hinge", "150"]).status == 0)
        let flat = try nextEvent(app, Event.posture)
        #expect(flat["state"] == "flat" && flat["previous"] == "halfOpened" && flat["hingeAngle"]?.doubleValue == 150)

        // P3: flat holds down to 125; below it is halfOpened again. P4: in a landscape the fold is horizontal.
        #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
        _ = try nextEvent(app, Event.deviceOrientation)
        #expect(try daemon.ctl(["hinge", "126"]).status == 0)
        #expect(try eventsBeforeBarrier(app).allSatisfy { $0.method != Event.posture })
        #expect(try daemon.ctl(["hinge", "124"]).status == 0)
        let half = try nextEvent(app, Event.posture)
        #expect(half["state"] == "halfOpened" && half["fold"] == "horizontal")

        let status = try daemon.control().call(Method.status)
        #expect(status["posture"]?["state"] == "halfOpened")
        #expect(try daemon.ctl(["hinge", "181"]).status != 0)
    }

    @Test("P4: a device without a hinge reports no posture")
    func noHingeNoPosture() throws {
        let daemon = try DaemonHarness()
        let (_, hello) = try daemon.app("com.example.reader")
        #expect(hello["posture"] == .null)
        #expect(try daemon.control().call(Method.status)["posture"] == .null)
    }

    @Test("status, apps list and watch show device orientation, interface orientation and posture")
    func shownInStatusAppsAndWatch() throws {
        let daemon = try DaemonHarness(arguments: ["--profile", "foldable"])
        let watcher = try daemon.control()
        _ = try watcher.call(Method.watch)
        let (app, _) = try orientedApp(daemon)
        #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
        let device = try watcher.nextEvent(timeout: 10, description: "deviceOrientation") { $0.method == Event.deviceOrientation }
        #expect(device.params["orientation"] == "landscapeLeft" && device.params["app"] == "com.example.game")
        let interface = try watcher.nextEvent(timeout: 10, description: "interfaceOrientation") { $0.method == Event.interfaceOrientation }
        #expect(interface.params["orientation"] == "landscapeRight" && interface.params["app"] == "com.example.game")
        #expect(try daemon.ctl(["hinge", "100"]).status == 0)
        let posture = try watcher.nextEvent(timeout: 10, description: "posture") { $0.method == Event.posture }
        #expect(posture.params["state"] == "halfOpened" && posture.params["fold"] == "horizontal")
        _ = app

        let status = try daemon.ctl(["status"])
        #expect(status.stdout.contains("Device:            landscapeLeft, rotation lock off"), "\(status.stdout)")
        #expect(status.stdout.contains("Posture:           halfOpened (hinge 100°)"), "\(status.stdout)")
        #expect(status.stdout.contains("iio (off), manual (active), replay (idle)"), "\(status.stdout)")
        let apps = try daemon.ctl(["apps", "list"])
        let row = try #require(apps.stdout.split(separator: "\n").first { $0.contains("com.example.game") })
        #expect(row.contains("landscapeRight"), "\(apps.stdout)")
    }

    /// A trace that holds the device upright in portrait, turns it to landscapeLeft over
    /// 0.4 s, then lays it flat face up: accelerometer at 100 Hz, times from the trace.
    private func turningTrace() -> String {
        let g = 9.80665
        var lines = ["{\"sextant\":\"trace\",\"version\":1,\"start\":\"2026-03-01T08:00:00.000Z\"}"]
        func add(_ t: Double, _ x: Double, _ y: Double, _ z: Double) {
            lines.append(String(format: "{\"t\":%.2f,\"accel\":{\"x\":%.5f,\"y\":%.5f,\"z\":%.5f}}", t, x, y, z))
        }
        for i in 0..<100 { add(Double(i) / 100, 0, g, 0) }
        for i in 0..<40 {  // gravity reaction turns from +y to +x
            let a = Double(i + 1) / 40 * .pi / 2
            add(1 + Double(i) / 100, g * sin(a), g * cos(a), 0)
        }
        for i in 0..<200 { add(1.4 + Double(i) / 100, g, 0, 0) }
        for i in 0..<200 { add(3.4 + Double(i) / 100, 0, 0, g) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func replayedOrientation(speed: JSONValue) throws -> [JSONValue] {
        let daemon = try DaemonHarness()
        let path = try daemon.write("turn.jsonl", turningTrace())
        let (app, _) = try orientedApp(daemon)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": speed])
        var seen: [JSONValue] = []
        while seen.last?["orientation"] != "faceUp" {
            seen.append(try app.nextEvent(timeout: 30, description: "deviceOrientation") { $0.method == Event.deviceOrientation }.params)
        }
        return seen
    }

    @Test("O5: a replayed turn gives the same device events, with the trace's times, at max, 37× and 1×")
    func replayDeterminism() throws {
        let atMax = try replayedOrientation(speed: "max")
        #expect(atMax.map { $0["orientation"] } == ["portrait", "landscapeLeft", "faceUp"])
        #expect(atMax.map { $0["previous"] } == ["unknown", "portrait", "landscapeLeft"])
        // Every decision is stamped with a sample's own time from the trace.
        let start = Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!.nanoseconds
        for event in atMax {
            let time = try #require(event["time"]?.stringValue.flatMap { Timestamp(rfc3339: $0) })
            #expect((time.nanoseconds - start) % 10_000_000 == 0)
        }
        #expect(try replayedOrientation(speed: 37) == atMax)
        #expect(try replayedOrientation(speed: 1) == atMax)
    }
}
