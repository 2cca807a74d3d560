import SextantProtocol
import Testing

@testable import SextantBrowser

/// The bridge's mapping from Sextant's app events to CDP commands (docs/browsers.md).
@Suite struct BrowserMappingTests {
    static func picture(_ status: AuthorizationStatus, accuracy: LocationAccuracy = .full, services: Bool = true) -> BrowserPicture {
        BrowserPicture(
            authorization: AuthorizationResult(status: status, accuracy: accuracy), servicesEnabled: services, interface: .portrait,
            device: .portrait)
    }

    static let fix = WireLocation(
        latitude: 48.1, longitude: 2.3, horizontalAccuracy: 4, altitude: 35, verticalAccuracy: 3, speed: 1.5, course: 90)

    @Test("L2: the permission is granted while authorized, prompt while notDetermined, denied otherwise and while services are off (L1)")
    func permissionFollowsAuthorization() {
        #expect(Self.picture(.authorizedWhenInUse).permission == .granted)
        #expect(Self.picture(.authorizedAlways).permission == .granted)
        #expect(Self.picture(.notDetermined).permission == .prompt)
        #expect(Self.picture(.denied).permission == .denied)
        #expect(Self.picture(.restricted).permission == .denied)
        #expect(Self.picture(.authorizedAlways, services: false).permission == .denied)
    }

    @Test("A fix becomes a geolocation override with every value it has")
    func fixBecomesOverride() {
        var picture = Self.picture(.authorizedWhenInUse)
        let commands = picture.apply(.location(Self.fix))
        #expect(
            commands == [
                CDPCommand(
                    "Emulation.setGeolocationOverride",
                    [
                        "latitude": 48.1, "longitude": 2.3, "accuracy": 4.0, "altitude": 35.0, "altitudeAccuracy": 3.0,
                        "heading": 90.0, "speed": 1.5,
                    ], to: .everyPage)
            ])
    }

    @Test("L10: a reduced fix passes as app.sock gave it: no altitude, speed or heading appear")
    func reducedFixPassesAsGiven() {
        var picture = Self.picture(.authorizedWhenInUse, accuracy: .reduced)
        let cell = WireLocation(latitude: 48.105, longitude: 2.31, horizontalAccuracy: 2000, accuracy: .reduced)
        #expect(
            picture.apply(.location(cell)) == [
                CDPCommand("Emulation.setGeolocationOverride", ["latitude": 48.105, "longitude": 2.31, "accuracy": 2000.0], to: .everyPage)
            ])
    }

    @Test("L9: a revoke makes the position unavailable before it denies the page")
    func revokeClearsThenDenies() {
        var picture = Self.picture(.authorizedWhenInUse)
        _ = picture.apply(.location(Self.fix))
        let commands = picture.apply(.authorization(AuthorizationResult(status: .denied, accuracy: .full)))
        #expect(commands == [BrowserPicture.positionUnavailable, BrowserPicture.setPermission(.denied)])
        // No fix reaches the page while denied; the next grant brings the latest one.
        #expect(picture.apply(.location(Self.fix)) == [])
        let regranted = picture.apply(.authorization(AuthorizationResult(status: .authorizedWhenInUse, accuracy: .full)))
        #expect(regranted.first == BrowserPicture.setPermission(.granted))
        #expect(regranted.last?.params["latitude"] == 48.1)
    }

    @Test("L1: services off denies the page as a revoke does")
    func servicesOffDenies() {
        var picture = Self.picture(.authorizedAlways)
        #expect(picture.apply(.servicesEnabled(false)) == [BrowserPicture.positionUnavailable, BrowserPicture.setPermission(.denied)])
        #expect(picture.apply(.servicesEnabled(false)) == [])
    }

    @Test("An outage is position unavailable")
    func outageIsUnavailable() {
        var picture = Self.picture(.authorizedWhenInUse)
        _ = picture.apply(.location(Self.fix))
        #expect(picture.apply(.locationUnavailable(reason: "gps lost")) == [BrowserPicture.positionUnavailable])
        #expect(picture.pageCommands.first == BrowserPicture.positionUnavailable)
    }

    @Test("The absolute orientation has a reading only once there is a heading; face up heading north is no rotation")
    func absoluteOrientationNeedsAHeading() {
        var picture = BrowserPicture(
            authorization: AuthorizationResult(status: .notDetermined, accuracy: .full), servicesEnabled: true, interface: .portrait,
            device: .faceUp)
        #expect(picture.absoluteOrientationReading == nil)
        #expect(picture.pageCommands.contains(BrowserPicture.absoluteOrientationOverride))
        let commands = picture.apply(.heading(WireHeading(magnetic: 0, trueHeading: nil, accuracy: 5, time: Timestamp(seconds: 0))))
        let identity: JSONValue = ["type": "absolute-orientation", "reading": ["quaternion": ["x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0]]]
        #expect(commands.last == CDPCommand("Emulation.setSensorOverrideReadings", identity, to: .everyPage), "\(commands)")
    }

    @Test("The page is in an outage only while authorized and Sextant says the position is unavailable: not before the first fix, not once revoked")
    func outageOnlyWhenSextantSaysSo() {
        var picture = Self.picture(.authorizedWhenInUse)
        #expect(!picture.inOutage, "before the first fix the page waits")
        _ = picture.apply(.locationUnavailable(reason: "gps lost"))
        #expect(picture.inOutage)
        _ = picture.apply(.location(Self.fix))
        #expect(!picture.inOutage)
        _ = picture.apply(.locationUnavailable(reason: "gps lost"))
        _ = picture.apply(.authorization(AuthorizationResult(status: .denied, accuracy: .full)))
        #expect(!picture.inOutage, "a denied page hears PERMISSION_DENIED, not an outage")
    }

    @Test("O6: interface orientations map to screen.orientation types and angles")
    func interfaceOrientationMapsToScreen() {
        let expected: [(InterfaceOrientation, String, Int64)] = [
            (.portrait, "portraitPrimary", 0), (.landscapeRight, "landscapePrimary", 90), (.portraitUpsideDown, "portraitSecondary", 180),
            (.landscapeLeft, "landscapeSecondary", 270),
        ]
        for (orientation, type, angle) in expected {
            let command = BrowserPicture.screenOrientation(orientation)
            #expect(command.params["screenOrientation"] == ["type": .string(type), "angle": .int(angle)])
        }
    }

    @Test("deviceorientation: beta and gamma from how the device is held, alpha = 360 − heading")
    func deviceOrientationAngles() {
        var picture = Self.picture(.notDetermined)
        _ = picture.apply(.heading(WireHeading(magnetic: 80, trueHeading: 90, accuracy: 5, time: Timestamp(seconds: 0))))
        #expect(picture.deviceOrientationOverride.params == ["alpha": 270.0, "beta": 90.0, "gamma": 0.0])
        _ = picture.apply(.deviceOrientation(DeviceOrientationEvent(orientation: .faceUp, previous: .portrait, time: Timestamp(seconds: 0))))
        #expect(picture.deviceOrientationOverride.params == ["alpha": 270.0, "beta": 0.0, "gamma": 0.0])
    }

    @Test("P1: posture maps to W3C's folded and continuous")
    func postureMaps() {
        #expect(BrowserPicture.postureOverride(.flat).params == ["posture": ["type": "continuous"]])
        #expect(BrowserPicture.postureOverride(.halfOpened).params == ["posture": ["type": "folded"]])
        #expect(BrowserPicture.postureOverride(.closed).params == ["posture": ["type": "folded"]])
    }

    @Test("M1: a motion event is the accelerometer override's reading as it is (W3C's frame and sign are Sextant's)")
    func motionMapsToAccelerometer() {
        var picture = Self.picture(.notDetermined)
        #expect(picture.pageCommands.last == BrowserPicture.accelerometerOverride, "overridden before the first reading")
        let reading = WireMotion(x: -9.5, y: 1.25, z: 2, time: Timestamp(seconds: 0))
        let command = picture.apply(.motion(reading))
        #expect(command == [BrowserPicture.accelerometerReading(reading)])
        #expect(command.first?.method == "Emulation.setSensorOverrideReadings")
        #expect(command.first?.params == ["type": "accelerometer", "reading": ["xyz": ["x": -9.5, "y": 1.25, "z": 2.0]]])
        // A page attached later gets the override and the latest reading.
        #expect(picture.pageCommands.suffix(2) == [BrowserPicture.accelerometerOverride, BrowserPicture.accelerometerReading(reading)])
    }

    @Test("issue 40.7: a deviceMotion event's rotation rate is the gyroscope override's reading (rad/s, device axes); without a rate, nothing")
    func rotationRateMapsToGyroscope() {
        var picture = Self.picture(.notDetermined)
        #expect(!picture.pageCommands.contains(BrowserPicture.gyroscopeOverride), "not overridden before the first rate: devicemotion would wait for it")
        let rate = WireVector(x: 0.5, y: -0.25, z: 1.5)
        func fused(_ rate: WireVector?) -> WireDeviceMotion {
            WireDeviceMotion(
                attitude: (1, 0, 0, 0), referenceFrame: .gameRotationVector, rotationRate: rate, gravity: WireVector(x: 0, y: 0, z: 9.8),
                userAcceleration: WireVector(x: 0, y: 0, z: 0), time: Timestamp(seconds: 0))
        }
        #expect(picture.apply(.deviceMotion(fused(nil))) == [])
        let command = picture.apply(.deviceMotion(fused(rate)))
        #expect(command == [BrowserPicture.gyroscopeOverride, BrowserPicture.gyroscopeReading(rate)])
        #expect(command.last?.params == ["type": "gyroscope", "reading": ["xyz": ["x": 0.5, "y": -0.25, "z": 1.5]]])
        #expect(picture.apply(.deviceMotion(fused(rate))) == [BrowserPicture.gyroscopeReading(rate)], "enabled once")
        #expect(picture.pageCommands.suffix(3) == [BrowserPicture.gyroscopeOverride, BrowserPicture.gyroscopeReading(rate), BrowserPicture.accelerometerOverride])
    }

    @Test("CDP messages: a command carries its session; answers, errors and events read back")
    func messages() throws {
        let line = CDPMessage.command(id: 3, method: "Page.enable", params: [:], sessionID: "S1")
        #expect(try JSONValue.parse(line) == ["id": 3, "method": "Page.enable", "params": [:], "sessionId": "S1"])
        #expect(CDPMessage.read(#"{"id":3,"result":{"a":1}}"#) == .answer(id: 3, .success(["a": 1])))
        #expect(CDPMessage.read(#"{"id":4,"error":{"code":-32601,"message":"no"}}"#) == .answer(id: 4, .failure(.init(code: -32601, message: "no"))))
        #expect(
            CDPMessage.read(#"{"method":"Runtime.bindingCalled","params":{"payload":"geolocation"},"sessionId":"S1"}"#)
                == .event(CDPEvent(method: "Runtime.bindingCalled", params: ["payload": "geolocation"], sessionID: "S1")))
        #expect(CDPMessage.read("not json") == nil)
    }

    @Test("--cdp takes http://HOST:PORT and ws:// addresses, and names what is wrong with others")
    func addresses() throws {
        let (host, port) = try DevToolsAddress.hostAndPort("http://127.0.0.1:9222")
        #expect(host == "127.0.0.1" && port == 9222)
        #expect(try DevToolsAddress.resolve("ws://127.0.0.1:9222/devtools/browser/x") == "ws://127.0.0.1:9222/devtools/browser/x")
        #expect(throws: DevToolsAddress.Failure.unsupported("ftp://x:1")) { try DevToolsAddress.hostAndPort("ftp://x:1") }
        #expect(throws: DevToolsAddress.Failure.unsupported("http://x")) { try DevToolsAddress.hostAndPort("http://x") }
    }
}
