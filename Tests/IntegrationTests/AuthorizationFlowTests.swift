import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The permission model end to end: the real daemon, its sockets, and sextantctl.
@Suite("Authorization through the real daemon")
struct AuthorizationFlowTests {
    @Test("L4 L5 L12: a prompt answered through sextantctl gives the pending request its status")
    func promptAnsweredThroughSextantctl() throws {
        let daemon = try DaemonHarness()
        let (app, hello) = try daemon.app("com.example.maps")
        #expect(hello["authorization"]?["status"] == "notDetermined")
        #expect(hello["protocol"] == 1)

        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        let request = try app.send(Method.authorizationRequest, ["level": "whenInUse"])
        let prompt = try control.nextEvent(timeout: 10, description: "the prompt") { $0.method == Event.prompt }
        let id = try #require(prompt.params["id"]?.stringValue)

        // A pending request blocks nothing else on the same connection.
        #expect(try app.call(Method.authorizationGet)["status"] == "notDetermined")
        #expect(try !app.hasResponse(to: request))

        let listed = try daemon.ctl(["prompts", "list", "--json"])
        #expect(listed.status == 0)
        let prompts = try JSONValue.parse(listed.stdout)
        #expect(prompts.arrayValue?.first?["id"]?.stringValue == id)
        #expect(prompts.arrayValue?.first?["kind"] == "authorization")
        #expect(prompts.arrayValue?.first?["level"] == "whenInUse")

        let answered = try daemon.ctl(["prompts", "answer", id, "allowWhileUsing", "--json"])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(try JSONValue.parse(answered.stdout)["status"] == "authorizedWhenInUse")

        let decided = try app.response(to: request)
        #expect(decided["status"] == "authorizedWhenInUse")
        #expect(decided["accuracy"] == "full")
        let event = try app.nextEvent(timeout: 5, description: "authorization event") { $0.method == Event.authorization }
        #expect(event.params["status"] == "authorizedWhenInUse")

        let list = try JSONValue.parse(try daemon.ctl(["permissions", "list", "--json"]).stdout)
        #expect(list.arrayValue?.count == 1)
        #expect(list.arrayValue?.first?["app"] == "com.example.maps")
        #expect(list.arrayValue?.first?["allowOnce"] == false)

        // L4: the app had its prompt this session; asking again answers at once. (Asking for
        // Always from When-In-Use would prompt at once: docs/platforms.md I5.)
        #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")

        // Answering a prompt that is gone is 1005.
        let again = try daemon.ctl(["prompts", "answer", id, "dontAllow"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("1005"))
    }

    @Test("L5: allowOnce reverts when the app has been in the background longer than the limit")
    func allowOnceExpiresInBackground() throws {
        let daemon = try DaemonHarness(arguments: ["--allow-once-timeout", "1", "--prompt-policy", "allowOnce"])
        let (app, _) = try daemon.app("com.example.once")
        #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")
        let listed = try JSONValue.parse(try daemon.ctl(["permissions", "list", "--json"]).stdout)
        #expect(listed.arrayValue?.first?["allowOnce"] == true)
        #expect(listed.arrayValue?.first?["status"] == "authorizedWhenInUse")

        #expect(try daemon.ctl(["apps", "background", "com.example.once"]).status == 0)
        let reverted = try app.nextEvent(timeout: 10, description: "the grant to lapse") {
            $0.method == Event.authorization && $0.params["status"] == "notDetermined"
        }
        #expect(reverted.params["status"] == "notDetermined")
        let after = try JSONValue.parse(try daemon.ctl(["permissions", "list", "--json"]).stdout)
        #expect(after.arrayValue?.isEmpty == true)
    }

    @Test("L5: allowOnce ends with the app session and is never stored")
    func allowOnceEndsWithSession() throws {
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "allowOnce"])
        do {
            let (app, _) = try daemon.app("com.example.once")
            #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")
            app.close()
        }
        #expect(try daemon.ctl(["prompts", "policy", "ask"]).status == 0)
        let (second, hello) = try daemon.app("com.example.once")
        #expect(hello["authorization"]?["status"] == "notDetermined")
        _ = second
    }

    @Test("L6: going to the background cancels an open prompt; the request returns notDetermined")
    func backgroundCancelsPrompt() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app("com.example.cancel")
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        let request = try app.send(Method.authorizationRequest, ["level": "whenInUse"])
        _ = try control.nextEvent(timeout: 10, description: "the prompt") { $0.method == Event.prompt }
        _ = try app.call(Method.appUpdate, ["state": "background"])
        #expect(try app.response(to: request)["status"] == "notDetermined")
        #expect(try control.call(Method.promptsList).arrayValue?.isEmpty == true)
    }

    @Test("L4: a request from the background waits for the foreground")
    func backgroundRequestWaits() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app("com.example.later", state: "background")
        let request = try app.send(Method.authorizationRequest, ["level": "whenInUse"])
        let control = try daemon.control()
        #expect(try control.call(Method.promptsList).arrayValue?.isEmpty == true)
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        #expect(try daemon.ctl(["apps", "foreground", "com.example.later"]).status == 0)
        let prompt = try control.nextEvent(timeout: 10, description: "the prompt") { $0.method == Event.prompt }
        _ = try control.call(Method.promptsAnswer, ["id": prompt.params["id"]!, "choice": "dontAllow"])
        #expect(try app.response(to: request)["status"] == "denied")
    }

    @Test("L8: a when-in-use stream pauses in the background and resumes in the foreground")
    func whenInUsePausesInBackground() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.walk"]).status == 0)
        let (app, _) = try daemon.app("com.example.walk")
        _ = try app.call(Method.locationStart)
        #expect(try daemon.ctl(["location", "set", "10", "20"]).status == 0)
        let first = try app.nextEvent(timeout: 5, description: "a location") { $0.method == Event.location }
        #expect(first.params["lat"]?.doubleValue == 10)

        #expect(try daemon.ctl(["apps", "background", "com.example.walk"]).status == 0)
        #expect(try daemon.ctl(["location", "set", "11", "20"]).status == 0)
        // Round trip: anything published before this answer would already be here.
        _ = try app.call(Method.authorizationGet)
        #expect(try app.takeEvents().filter { $0.method == Event.location }.isEmpty)

        #expect(try daemon.ctl(["apps", "foreground", "com.example.walk"]).status == 0)
        #expect(try daemon.ctl(["location", "set", "12", "20"]).status == 0)
        let resumed = try app.nextEvent(timeout: 5, description: "a location") { $0.method == Event.location }
        #expect(resumed.params["lat"]?.doubleValue == 12)
    }

    @Test("L8: authorizedAlways keeps delivering in the background")
    func alwaysDeliversInBackground() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.run", "--always"]).status == 0)
        let (app, _) = try daemon.app("com.example.run", state: "background")
        _ = try app.call(Method.locationStart)
        #expect(try daemon.ctl(["location", "set", "1", "2"]).status == 0)
        #expect(try app.nextEvent(timeout: 5, description: "a location") { $0.method == Event.location }.params["lon"]?.doubleValue == 2)
    }

    @Test("L7 L1: with Location Services off, location.start fails at once and raises one alert")
    func servicesOffAlert() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.nav"]).status == 0)
        let (app, hello) = try daemon.app("com.example.nav")
        #expect(hello["authorization"]?["status"] == "authorizedWhenInUse")

        #expect(try daemon.ctl(["services", "off"]).status == 0)
        let off = try app.events(until: "the switch event") { $0.method == Event.servicesEnabled }
        #expect(off.contains { $0.method == Event.authorization && $0.params["status"] == "denied" })
        #expect(off.last?.params["enabled"] == false)

        for _ in 0..<2 {
            #expect(try errorCode { try app.call(Method.locationStart) } == RPCErrorCode.servicesDisabled.rawValue)
        }
        let alerts = try JSONValue.parse(try daemon.ctl(["prompts", "list", "--json"]).stdout).arrayValue ?? []
        #expect(alerts.count == 1, "one alert per app session")
        #expect(alerts.first?["kind"] == "servicesOff")
        #expect(alerts.first?["level"] == .null)

        // Answering the alert never turns the switch on.
        let id = try #require(alerts.first?["id"]?.stringValue)
        #expect(try daemon.ctl(["prompts", "answer", id, "settings"]).status == 0)
        #expect(try JSONValue.parse(try daemon.ctl(["status", "--json"]).stdout)["servicesEnabled"] == false)

        // L7 for authorization.request as well, and 1002 wins over 1001 for another app.
        let (stranger, _) = try daemon.app("com.example.stranger")
        #expect(try errorCode { try stranger.call(Method.authorizationRequest, ["level": "whenInUse"]) } == 1002)

        // L1: the stored decision comes back with the switch.
        #expect(try daemon.ctl(["services", "on"]).status == 0)
        let on = try app.events(until: "the switch event") { $0.method == Event.servicesEnabled }
        #expect(on.contains { $0.method == Event.authorization && $0.params["status"] == "authorizedWhenInUse" })
        _ = try app.call(Method.locationStart)
    }

    @Test("L9: after a revoke not one more location reaches the app")
    func revokeCutsOffAtOnce() throws {
        let daemon = try DaemonHarness()
        let trace = try daemon.write("fast.jsonl", syntheticTrace(count: 3000, step: 0.01))
        #expect(try daemon.ctl(["permissions", "grant", "com.example.fast"]).status == 0)
        let (app, _) = try daemon.app("com.example.fast")
        _ = try app.call(Method.locationStart)
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["replay"]])
        _ = try control.call(Method.replayStart, ["path": .string(trace), "speed": 2])
        // Let some locations flow, then revoke mid-stream.
        var received = 0
        while received < 50 {
            if try app.nextEvent(timeout: 10).method == Event.location { received += 1 }
        }
        #expect(try daemon.ctl(["permissions", "revoke", "com.example.fast"]).status == 0)
        _ = try app.events(until: "the revoke") { $0.method == Event.authorization && $0.params["status"] == "denied" }
        // Let the replay run to its end; then a round trip flushes anything in flight.
        _ = try control.call(Method.replayStart, ["path": .string(trace), "speed": "max"])
        _ = try control.nextEvent(timeout: 30, description: "the replay to finish") {
            $0.method == Event.replay && $0.params["state"] == "finished"
        }
        _ = try app.call(Method.authorizationGet)
        let after = try app.takeEvents().filter { $0.method == Event.location }
        #expect(after.isEmpty, "\(after.count) locations after the revoke")
    }

    @Test("L10: reduced accuracy is applied in the daemon: the cell's centre, hAcc ≥ 2000 m, no altitude/speed/course")
    func reducedAccuracy() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.coarse", "--approximate"]).status == 0)
        let (app, hello) = try daemon.app("com.example.coarse")
        #expect(hello["authorization"]?["accuracy"] == "reduced")
        _ = try app.call(Method.locationStart)
        let truth = (lat: 48.85837, lon: 2.29448)
        #expect(try daemon.ctl(["location", "set", "\(truth.lat)", "\(truth.lon)", "--alt", "35", "--speed", "1.4", "--course", "90"]).status == 0)
        let coarse = try app.nextEvent(timeout: 5, description: "a location") { $0.method == Event.location }.params
        #expect(coarse["accuracy"] == "reduced")
        #expect((coarse["hAcc"]?.doubleValue ?? 0) >= 2000)
        #expect(coarse["alt"] == nil && coarse["speed"] == nil && coarse["course"] == nil)
        let lat = try #require(coarse["lat"]?.doubleValue), lon = try #require(coarse["lon"]?.doubleValue)
        let offset = haversine(truth.lat, truth.lon, lat, lon)
        #expect(offset <= 1415, "the centre of a 2 km cell is at most its half-diagonal away (\(offset) m)")
        #expect(lat != truth.lat || lon != truth.lon)

        // A move within the cell brings nothing new; a move of 10 km does.
        #expect(try daemon.ctl(["location", "set", "\(lat)", "\(lon)"]).status == 0)
        _ = try app.call(Method.authorizationGet)
        #expect(try app.takeEvents().filter { $0.method == Event.location }.isEmpty)
        #expect(try daemon.ctl(["location", "set", "\(truth.lat + 0.09)", "\(truth.lon)"]).status == 0)
        let moved = try app.nextEvent(timeout: 5, description: "a location") { $0.method == Event.location }.params
        #expect(haversine(truth.lat + 0.09, truth.lon, moved["lat"]!.doubleValue!, moved["lon"]!.doubleValue!) <= 1415)

        // location.once is reduced too.
        let onceID = try app.send(Method.locationOnce)
        #expect(try daemon.ctl(["location", "set", "\(truth.lat)", "\(truth.lon)"]).status == 0)
        let once = try app.response(to: onceID)
        #expect(once["lat"] == coarse["lat"] && once["lon"] == coarse["lon"])
        #expect(once["accuracy"] == "reduced")
    }

    @Test("L11: distanceFilter skips fixes closer than the filter to the last one delivered")
    func distanceFilter() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.filter"]).status == 0)
        let (app, _) = try daemon.app("com.example.filter")
        _ = try app.call(Method.locationStart, ["distanceFilter": 100])
        // 0.0008° of latitude ≈ 89 m; 0.0010° ≈ 111 m.
        for lat in [50.0, 50.0008, 50.0010, 50.0018, 50.0021] {
            #expect(try daemon.ctl(["location", "set", "\(lat)", "8"]).status == 0)
        }
        _ = try app.call(Method.authorizationGet)
        let lats = try app.takeEvents().filter { $0.method == Event.location }.compactMap { $0.params["lat"]?.doubleValue }
        #expect(lats == [50.0, 50.0010, 50.0021])
    }

    @Test("L2 L3 1001: an app without authorization gets no location and no prompt by reading")
    func unauthorizedGetsNothing() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app("com.example.nosy")
        #expect(try app.call(Method.authorizationGet)["status"] == "notDetermined")
        #expect(try daemon.control().call(Method.promptsList).arrayValue?.isEmpty == true)
        #expect(try errorCode { try app.call(Method.locationStart) } == 1001)
        #expect(try errorCode { try app.call(Method.locationOnce) } == 1001)
        #expect(try daemon.ctl(["permissions", "set", "com.example.nosy", "restricted"]).status == 0)
        #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "restricted")
        // Apps can never change permissions: the control methods do not exist on the app socket.
        #expect(try errorCode { try app.call(Method.permissionsSet, ["app": "com.example.nosy", "status": "authorizedAlways"]) } == -32601)
    }
}

func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let r = 6_371_008.8, p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
    let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
    let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
    return 2 * r * asin(min(1, h.squareRoot()))
}
