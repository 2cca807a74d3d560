import SextantProtocol
import Testing

/// Each request reads the params written by hand here and writes them back the same; each
/// result and event reads its JSON and writes it back the same. "The same" is the same
/// text on the wire: a whole number read as an integer is written back from a Double.
@Suite("Typed requests, results and events")
struct RequestTypesTests {
    /// Parses `params`, reads the request, and checks that it writes the same params back.
    func roundTrip<Request: RPCRequest & Equatable>(_ type: Request.Type, _ text: String, _ expected: Request) throws {
        let params = try JSONValue.parse(text)
        let request = try Request(Params(params))
        #expect(request == expected, "\(Request.method): \(text)")
        #expect(request.params.serialized() == params.serialized(), "\(Request.method) writes back \(request.params.serialized()), not \(text)")
    }

    func roundTripValue<Value: WireValue & Equatable>(_ type: Value.Type, _ text: String, _ expected: Value) throws {
        let json = try JSONValue.parse(text)
        let value = try Value(json: json)
        #expect(value == expected, "\(text)")
        #expect(value.json.serialized() == json.serialized(), "writes back \(value.json.serialized()), not \(text)")
    }

    @Test("the app socket's requests read and write their params")
    func appRequests() throws {
        try roundTrip(Hello.self, #"{"app":"com.example.maps","state":"background","orientations":["portrait","landscapeLeft"]}"#,
            Hello(app: "com.example.maps", state: .background, orientations: [.portrait, .landscapeLeft]))
        try roundTrip(Hello.self, #"{"app":"com.example.maps"}"#, Hello(app: "com.example.maps"))
        try roundTrip(AuthorizationGet.self, "{}", AuthorizationGet())
        try roundTrip(AuthorizationRequest.self, #"{"level":"always"}"#, AuthorizationRequest(level: .always))
        try roundTrip(LocationStart.self, #"{"desiredAccuracy":10,"distanceFilter":2.5}"#, LocationStart(desiredAccuracy: 10, distanceFilter: 2.5))
        try roundTrip(LocationStart.self, "{}", LocationStart())
        try roundTrip(LocationStop.self, "{}", LocationStop())
        try roundTrip(LocationOnce.self, "{}", LocationOnce())
        try roundTrip(OrientationStart.self, "{}", OrientationStart())
        try roundTrip(OrientationStop.self, "{}", OrientationStop())
        try roundTrip(PostureStart.self, "{}", PostureStart())
        try roundTrip(SignificantChangesStart.self, "{}", SignificantChangesStart())
        try roundTrip(VisitsStop.self, "{}", VisitsStop())
        try roundTrip(PostureStop.self, "{}", PostureStop())
        try roundTrip(AppUpdate.self, #"{"state":"foreground","orientations":["portrait"],"interfaceLocked":true}"#,
            AppUpdate(state: .foreground, orientations: [.portrait], interfaceLocked: true))
    }

    @Test("the control socket's requests read and write their params")
    func controlRequests() throws {
        try roundTrip(StatusRequest.self, "{}", StatusRequest())
        try roundTrip(ServicesSet.self, #"{"enabled":false}"#, ServicesSet(enabled: false))
        try roundTrip(DeviceRotationLock.self, #"{"enabled":true}"#, DeviceRotationLock(enabled: true))
        try roundTrip(PermissionsList.self, "{}", PermissionsList())
        try roundTrip(PermissionsSet.self, #"{"app":"com.example.a","status":"authorizedAlways","accuracy":"reduced"}"#,
            PermissionsSet(app: "com.example.a", status: .authorizedAlways, accuracy: .reduced))
        try roundTrip(PermissionsReset.self, #"{"app":"com.example.a"}"#, PermissionsReset(app: "com.example.a"))
        try roundTrip(PermissionsReset.self, "{}", PermissionsReset())
        try roundTrip(PermissionsOwners.self, "{}", PermissionsOwners())
        try roundTrip(PermissionsUnbind.self, #"{"app":"com.example.a"}"#, PermissionsUnbind(app: "com.example.a"))
        try roundTrip(PromptsList.self, "{}", PromptsList())
        try roundTrip(PromptsAnswer.self, #"{"id":"p1","choice":"allowOnce","precise":false}"#, PromptsAnswer(id: "p1", choice: .allowOnce, precise: false))
        try roundTrip(PromptsPolicy.self, #"{"mode":"ask","precise":true}"#, PromptsPolicy(mode: "ask", precise: true))
        try roundTrip(AppsList.self, "{}", AppsList())
        try roundTrip(AppsUpdate.self, #"{"state":"background","session":3}"#, AppsUpdate(state: .background, target: .session(3)))
        try roundTrip(AppsUpdate.self, #"{"state":"foreground","app":"com.example.a"}"#, AppsUpdate(state: .foreground, target: .app("com.example.a")))
        try roundTrip(WatchRequest.self, #"{"topics":["location","prompt"],"app":"com.example.a"}"#,
            WatchRequest(topics: [Event.location, Event.prompt], app: "com.example.a"))
        try roundTrip(WatchRequest.self, "{}", WatchRequest())
    }

    @Test("replay, recording and device.set read and write their params")
    func replayAndDeviceRequests() throws {
        try roundTrip(ReplayStart.self, #"{"path":"/t/walk.jsonl","speed":"max","loop":true,"until":12.5}"#,
            ReplayStart(path: "/t/walk.jsonl", speed: .max, loop: true, until: 12.5))
        try roundTrip(ReplayStart.self, #"{"path":"/t/walk.jsonl","speed":2}"#, ReplayStart(path: "/t/walk.jsonl", speed: .factor(2)))
        try roundTrip(ReplayStart.self, #"{"path":"/t/walk.jsonl","speed":"max","startOnRequest":true}"#,
            ReplayStart(path: "/t/walk.jsonl", speed: .max, startOnRequest: true))
        try roundTrip(ReplayStop.self, "{}", ReplayStop())
        try roundTrip(ReplayStatusRequest.self, "{}", ReplayStatusRequest())
        try roundTrip(ReplayPause.self, "{}", ReplayPause())
        try roundTrip(ReplayResume.self, "{}", ReplayResume())
        try roundTrip(ReplaySeek.self, #"{"position":30}"#, ReplaySeek(position: 30))
        try roundTrip(ReplayStep.self, #"{"count":5}"#, ReplayStep(count: 5))
        try roundTrip(RecordStart.self, #"{"path":"/t/out.jsonl"}"#, RecordStart(path: "/t/out.jsonl"))
        try roundTrip(RecordStop.self, "{}", RecordStop())
        try roundTrip(DeviceSet.self, #"{"location":{"lat":48.85,"lon":2.29,"hAcc":5,"alt":35},"hingeAngle":90}"#,
            DeviceSet(location: WireLocation(latitude: 48.85, longitude: 2.29, horizontalAccuracy: 5, altitude: 35), hingeAngle: 90))
        try roundTrip(DeviceSet.self, #"{"acceleration":{"x":0,"y":9.81,"z":0},"orientation":"faceUp"}"#,
            DeviceSet(acceleration: .reading(x: 0, y: 9.81, z: 0), orientation: .faceUp))
        try roundTrip(DeviceSet.self, #"{"acceleration":null}"#, DeviceSet(acceleration: .released))
        try roundTrip(DeviceSet.self, #"{"hingeAngle":null}"#, DeviceSet(releasesHinge: true))
    }

    @Test("results read and write their JSON")
    func results() throws {
        let authorization = AuthorizationResult(status: .authorizedWhenInUse, accuracy: .full)
        try roundTripValue(EmptyResult.self, "{}", EmptyResult())
        try roundTripValue(HelloResult.self,
            #"{"protocol":1,"session":7,"profile":"foldable","servicesEnabled":true,"authorization":{"status":"authorizedWhenInUse","accuracy":"full"},"interfaceOrientation":null,"deviceOrientation":"faceUp","posture":null,"platform":"ios"}"#,
            HelloResult(session: 7, profile: .foldable, servicesEnabled: true, authorization: authorization, interfaceOrientation: nil,
                deviceOrientation: .faceUp, posture: .null))
        try roundTripValue(HelloResult.self,
            #"{"protocol":1,"session":7,"profile":"phone","servicesEnabled":true,"authorization":{"status":"authorizedWhenInUse","accuracy":"full"},"interfaceOrientation":null,"deviceOrientation":"faceUp","posture":null,"platform":"android","androidApi":31}"#,
            HelloResult(session: 7, profile: .phone, servicesEnabled: true, authorization: authorization, interfaceOrientation: nil,
                deviceOrientation: .faceUp, posture: .null, platform: .android(api: 31)))
        // A daemon from before platforms says none: its phone is iOS.
        #expect(try HelloResult(json: .parse(#"{"protocol":1,"session":7,"profile":"phone","servicesEnabled":true,"authorization":{"status":"denied","accuracy":"full"},"deviceOrientation":"faceUp"}"#)).platform == .ios)
        #expect(throws: RPCError.self) { try HelloResult(json: .parse(#"{"protocol":1,"session":7,"profile":"phone","servicesEnabled":true,"authorization":{"status":"denied","accuracy":"full"},"deviceOrientation":"faceUp","platform":"android","androidApi":12}"#)) }
        try roundTripValue(AuthorizationResult.self, #"{"status":"denied","accuracy":"full","servicesEnabled":false}"#,
            AuthorizationResult(status: .denied, accuracy: .full, servicesEnabled: false))
        try roundTripValue(EnabledResult.self, #"{"enabled":true}"#, EnabledResult(enabled: true))
        try roundTripValue(CountResult.self, #"{"count":4}"#, CountResult(count: 4))
        try roundTripValue(OwnerEntry.self, #"{"app":"com.example.a","uid":null}"#, OwnerEntry(app: "com.example.a", uid: nil))
        try roundTripValue(OwnerEntry.self, #"{"app":"com.example.a","uid":1000}"#, OwnerEntry(app: "com.example.a", uid: 1000))
        try roundTripValue(PromptAnswerResult.self, #"{"id":"p1","app":"com.example.a","kind":"authorization","choice":"allowWhileUsing","status":"authorizedWhenInUse","accuracy":"full"}"#,
            PromptAnswerResult(id: "p1", app: "com.example.a", kind: .authorization, choice: .allowWhileUsing, authorization: authorization))
        try roundTripValue(PromptAnswerResult.self, #"{"id":"p2","app":"com.example.a","kind":"servicesOff","choice":"cancel"}"#,
            PromptAnswerResult(id: "p2", app: "com.example.a", kind: .servicesOff, choice: .cancel))
        try roundTripValue(ReplayStatus.self,
            #"{"path":"/t/walk.jsonl","position":1.5,"duration":60,"events":12,"state":"paused","speed":"max","loop":false,"lap":0,"until":null,"stepped":2}"#,
            ReplayStatus(path: "/t/walk.jsonl", position: 1.5, duration: 60, events: 12, state: .paused, speed: .max, loop: false, lap: 0, until: nil, stepped: 2))
        try roundTripValue(ReplayStatus.self,
            #"{"path":"/t/walk.jsonl","position":0,"duration":60,"events":0,"state":"paused","speed":"max","loop":false,"lap":0,"until":null,"waitingForRequest":true}"#,
            ReplayStatus(path: "/t/walk.jsonl", position: 0, duration: 60, events: 0, state: .paused, speed: .max, loop: false, lap: 0, until: nil, waitingForRequest: true))
        try roundTripValue(RecordResult.self, #"{"path":"/t/out.jsonl","events":120,"skipped":1}"#, RecordResult(path: "/t/out.jsonl", events: 120, skipped: 1))
        try roundTripValue([OwnerEntry].self, #"[{"app":"a.b","uid":1}]"#, [OwnerEntry(app: "a.b", uid: 1)])
        // `timeZone.get`'s answer: no `previous` or `reason`; null while no zone is known.
        try roundTripValue(WireTimeZone.self, #"{"zone":null,"utcOffset":null,"isDST":null,"time":null,"automatic":true}"#, WireTimeZone(zone: nil, automatic: true))
    }

    /// I13: an approximate app's flags.
    static var reducedDiagnostics: WireDiagnostics {
        var flags = WireDiagnostics()
        flags.accuracyLimited = true
        flags.fullAccuracyDenied = true
        return flags
    }

    @Test("events decode from their notification and write the same params back")
    func events() throws {
        let time = try #require(Timestamp(rfc3339: "2026-03-01T10:00:00.250Z"))
        let cases = try Self.locationAndSessionEvents(time) + Self.sensorServiceEvents(time)
        #expect(Set(cases.map(\.0)) == Event.all, "every event has a case here")
        for (method, text, expected) in cases {
            let params = try JSONValue.parse(text)
            let event = try SextantEvent(method: method, params: params)
            #expect(event == expected, "\(method)")
            #expect(event.method == method)
            #expect(event.params.serialized() == params.serialized(), "\(method) writes back \(event.params.serialized())")
        }
        #expect(throws: RPCError.self) { try SextantEvent(method: "nope", params: [:]) }
        #expect(throws: RPCError.self) { try SextantEvent(method: Event.location, params: ["lat": 1]) }
    }

    /// Each event of the location services, authorization and the control side: its method,
    /// its params as the wire says them, and the value they decode to.
    static func locationAndSessionEvents(_ time: Timestamp) throws -> [(String, String, SextantEvent)] {
        [
            (Event.location, #"{"lat":48.85,"lon":2.29,"hAcc":5,"alt":35,"vAcc":3,"speed":1.5,"course":90,"time":"2026-03-01T10:00:00.250Z","accuracy":"reduced"}"#,
             .location(WireLocation(latitude: 48.85, longitude: 2.29, horizontalAccuracy: 5, altitude: 35, verticalAccuracy: 3, speed: 1.5, course: 90, time: time, accuracy: .reduced))),
            (Event.authorization, #"{"status":"authorizedAlways","accuracy":"reduced"}"#, .authorization(AuthorizationResult(status: .authorizedAlways, accuracy: .reduced))),
            (Event.servicesEnabled, #"{"enabled":false}"#, .servicesEnabled(false)),
            (Event.deviceOrientation, #"{"orientation":"landscapeLeft","previous":"portrait","time":"2026-03-01T10:00:00.250Z"}"#,
             .deviceOrientation(DeviceOrientationEvent(orientation: .landscapeLeft, previous: .portrait, time: time))),
            (Event.interfaceOrientation, #"{"orientation":"portrait","previous":null}"#, .interfaceOrientation(InterfaceOrientationEvent(orientation: .portrait, previous: nil))),
            (Event.posture, #"{"state":"halfOpened","previous":"closed","hingeAngle":90,"fold":"vertical","time":"2026-03-01T10:00:00.250Z"}"#,
             .posture(PostureEvent(state: .halfOpened, previous: .closed, hingeAngle: 90, fold: .vertical, time: time))),
            (Event.locationUnavailable, #"{"reason":"gpsd lost"}"#, .locationUnavailable(reason: "gpsd lost")),
            (Event.significantChange, #"{"lat":48.85,"lon":2.29,"hAcc":2000,"time":"2026-03-01T10:00:00.250Z","accuracy":"reduced"}"#,
             .significantChange(WireLocation(latitude: 48.85, longitude: 2.29, horizontalAccuracy: 2000, time: time, accuracy: .reduced))),
            (Event.visit, #"{"lat":48.85,"lon":2.29,"hAcc":40,"arrival":"2026-03-01T10:00:00.250Z","departure":null,"accuracy":"full"}"#,
             .visit(WireVisit(latitude: 48.85, longitude: 2.29, horizontalAccuracy: 40, arrival: time, departure: nil, accuracy: .full))),
            (Event.region, #"{"identifier":"shop","transition":"enter","state":"inside","time":"2026-03-01T10:00:00.250Z"}"#,
             .region(RegionEvent(identifier: "shop", transition: .enter, state: .inside, time: time))),
            (Event.regionUnavailable, #"{"reason":"reduced accuracy"}"#, .regionUnavailable(reason: "reduced accuracy")),
            (Event.prompt, #"{"id":"p1","app":"a.b","session":1,"kind":"authorization","level":"whenInUse","created":"2026-03-01T10:00:00.250Z"}"#,
             .prompt(try JSONValue.parse(#"{"id":"p1","app":"a.b","session":1,"kind":"authorization","level":"whenInUse","created":"2026-03-01T10:00:00.250Z"}"#))),
            (Event.promptClosed, #"{"id":"p1","choice":null,"cancelled":true}"#, .promptClosed(try JSONValue.parse(#"{"id":"p1","choice":null,"cancelled":true}"#))),
            (Event.replay, #"{"path":null,"position":0,"duration":0,"events":0,"state":"idle","speed":1,"loop":false,"lap":0,"until":null}"#,
             .replay(ReplayStatus(path: nil, position: 0, duration: 0, events: 0, state: .idle, speed: .factor(1), loop: false, lap: 0, until: nil))),
            (Event.heading, #"{"magnetic":87.5,"true":89.48,"accuracy":5,"field":{"x":-19.96,"y":0.87,"z":-40},"time":"2026-03-01T10:00:00.250Z"}"#,
             .heading(WireHeading(magnetic: 87.5, trueHeading: 89.48, accuracy: 5, field: .init(x: -19.96, y: 0.87, z: -40), time: time))),
            (Event.headingCalibration, #"{"needed":true,"time":"2026-03-01T10:00:00.250Z"}"#,
             .headingCalibration(HeadingCalibrationEvent(needed: true, time: time))),
            (Event.satellites, #"{"satellites":[{"constellation":"qzss","svid":1,"prn":193,"el":60,"az":200,"cn0":40,"used":true}],"inView":1,"used":1,"time":"2026-03-01T10:00:00.250Z"}"#,
             .satellites(WireSky(sky: SkyView(satellites: [SatelliteInView(constellation: .qzss, svid: 1, elevation: 60, azimuth: 200, cn0: 40, used: true)]), time: time))),
            (Event.session, #"{"change":"closed","session":3,"app":"a.b","pid":7,"uid":1000,"kind":"app"}"#,
             .session(try JSONValue.parse(#"{"change":"closed","session":3,"app":"a.b","pid":7,"uid":1000,"kind":"app"}"#))),
        ]
    }

    /// The same for the sensor services' events.
    static func sensorServiceEvents(_ time: Timestamp) throws -> [(String, String, SextantEvent)] {
        [
            (Event.motion, #"{"x":-0.5,"y":9.75,"z":0.25,"time":"2026-03-01T10:00:00.250Z"}"#,
             .motion(WireMotion(x: -0.5, y: 9.75, z: 0.25, time: time))),
            (Event.timeZone, #"{"zone":"Europe/Madrid","previous":"Europe/Lisbon","utcOffset":7200,"isDST":true,"time":"2026-03-01T10:00:00.250Z","automatic":true,"reason":"zoneChanged"}"#,
             .timeZone(WireTimeZone(zone: "Europe/Madrid", previous: "Europe/Lisbon", utcOffset: 7200, isDST: true, time: time, automatic: true, reason: .zoneChanged))),
            (Event.activity, #"{"types":["stationary","automotive"],"confidence":"high","percent":100,"startDate":"2026-03-01T10:00:00.250Z","source":"derived"}"#,
             .activity(WireActivity(types: [.stationary, .automotive], confidence: .high, percent: 100, startDate: time, source: "derived"))),
            (Event.activityTransition, #"{"activity":"walking","transition":"enter","time":"2026-03-01T10:00:00.250Z","elapsedRealtimeNanos":5000000000}"#,
             .activityTransition(WireActivityTransition(activity: .walking, transition: .enter, time: time, elapsedRealtimeNanos: 5_000_000_000))),
            (Event.pedometer, #"{"startDate":"2026-03-01T10:00:00.250Z","endDate":"2026-03-01T10:00:00.250Z","numberOfSteps":12,"distance":8.76,"currentCadence":1.9,"currentPace":0.71}"#,
             .pedometer(WirePedometer(startDate: time, endDate: time, numberOfSteps: 12, distance: 8.76, currentCadence: 1.9, currentPace: 0.71))),
            (Event.light, #"{"lux":320.5,"time":"2026-03-01T10:00:00.250Z"}"#, .light(WireLight(lux: 320.5, time: time))),
            (Event.proximity, #"{"near":true,"time":"2026-03-01T10:00:00.250Z"}"#, .proximity(WireProximity(near: true, time: time))),
            (Event.altitude, #"{"relativeAltitude":4,"pressure":100.12,"altitude":35,"accuracy":3,"derived":true,"time":"2026-03-01T10:00:00.250Z"}"#,
             .altitude(WireAltitude(relativeAltitude: 4, pressure: 100.12, altitude: 35, accuracy: 3, derived: true, time: time))),
            (Event.deviceMotion,
             #"{"attitude":{"w":0.5,"x":0.5,"y":-0.5,"z":0.5},"referenceFrame":"rotationVector","rotationRate":null,"gravity":{"x":0,"y":0,"z":9.75},"userAcceleration":{"x":0.25,"y":0,"z":0},"time":"2026-03-01T10:00:00.250Z"}"#,
             .deviceMotion(WireDeviceMotion(
                attitude: (0.5, 0.5, -0.5, 0.5), referenceFrame: .rotationVector, rotationRate: nil, gravity: WireVector(x: 0, y: 0, z: 9.75),
                userAcceleration: WireVector(x: 0.25, y: 0, z: 0), time: time))),
            (Event.clockChanged, #"{"wall":"2026-03-01T10:00:00.250Z","offsetSeconds":-86400,"monotonicSeconds":7200.5,"monotonicOffsetSeconds":61}"#,
             .clockChanged(DeviceClockState(wall: time, offsetSeconds: -86400, monotonicSeconds: 7200.5, monotonicOffsetSeconds: 61))),
            (Event.locations, #"{"locations":[{"lat":48.85,"lon":2.29,"hAcc":2000,"time":"2026-03-01T10:00:00.250Z","accuracy":"reduced"}]}"#,
             .locations([WireLocation(latitude: 48.85, longitude: 2.29, horizontalAccuracy: 2000, time: time, accuracy: .reduced)])),
            (Event.diagnostics,
             #"{"accuracyLimited":true,"alwaysAuthorizationDenied":false,"authorizationDenied":false,"authorizationDeniedGlobally":false,"authorizationRequestInProgress":false,"authorizationRestricted":false,"fullAccuracyDenied":true,"insufficientlyInUse":false,"locationUnavailable":false,"serviceSessionRequired":false,"stationary":false}"#,
             .diagnostics(Self.reducedDiagnostics)),
        ]
    }

    @Test("a request reads bad params with the daemon's -32602 messages")
    func badParams() throws {
        func message<Request: RPCRequest>(_ type: Request.Type, _ text: String) throws -> String? {
            let params = try JSONValue.parse(text)
            do {
                _ = try Request(Params(params))
                return nil
            } catch {
                #expect(error.code == RPCErrorCode.invalidParams.rawValue)
                return error.message
            }
        }
        #expect(try message(Hello.self, #"{"app":"no spaces"}"#) == "\"app\" must be 1-255 of [A-Za-z0-9._-], e.g. com.example.maps")
        #expect(try message(LocationStart.self, #"{"distanceFilter":-1}"#) == "\"distanceFilter\" must not be negative")
        #expect(try message(AuthorizationRequest.self, "{}") == "\"level\" is required: whenInUse or always")
        #expect(try message(PermissionsSet.self, #"{"app":"a.b","status":"maybe"}"#)?.hasPrefix("\"status\" must be one of: notDetermined") == true)
        #expect(try message(ReplayStart.self, #"{"path":"/t","speed":0}"#) == "\"speed\" must be \"max\" or a number from 0.001 to 1000000.0")
        #expect(try message(ReplayStep.self, #"{"count":1.5}"#) == "\"count\" must be a whole number from 1 to 1000000")
        #expect(try message(WatchRequest.self, #"{"topics":["nope"]}"#)?.hasPrefix("\"topics\": no event \"nope\"") == true)
        #expect(try message(ReplaySeek.self, "{}") == "\"position\" is required (seconds)")
    }
}
