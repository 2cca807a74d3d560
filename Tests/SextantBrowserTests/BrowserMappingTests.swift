import Foundation
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
        #expect(picture.absoluteOrientation == nil)
        #expect(picture.pageCommands.contains(PageSensor.absoluteOrientation.override))
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
        #expect(picture.orientationAngles == (270, 90, 0))
        _ = picture.apply(.deviceOrientation(DeviceOrientationEvent(orientation: .faceUp, previous: .portrait, time: Timestamp(seconds: 0))))
        #expect(picture.orientationAngles == (270, 0, 0))
    }

    @Test("H2: the heading app.sock gives is turned to the app's interface; W3C's alpha is the device's own (a heading of 0 in landscapeRight is the device's top at 270°)")
    func orientationUsesTheDevicesHeading() {
        var picture = Self.picture(.notDetermined)
        _ = picture.apply(.deviceOrientation(DeviceOrientationEvent(orientation: .faceUp, previous: .portrait, time: Timestamp(seconds: 0))))
        _ = picture.apply(.interfaceOrientation(InterfaceOrientationEvent(orientation: .landscapeRight, previous: .portrait)))
        // The interface's top is the device's right side: heading 0 for it is 270 for the top.
        _ = picture.apply(.heading(WireHeading(magnetic: 0, trueHeading: nil, accuracy: 5, time: Timestamp(seconds: 0))))
        #expect(picture.orientationAngles == (90, 0, 0))
    }

    @Test("P1: posture maps to W3C's folded and continuous")
    func postureMaps() {
        #expect(BrowserPicture.postureOverride(.flat).params == ["posture": ["type": "continuous"]])
        #expect(BrowserPicture.postureOverride(.halfOpened).params == ["posture": ["type": "folded"]])
        #expect(BrowserPicture.postureOverride(.closed).params == ["posture": ["type": "folded"]])
    }

    static func fused(
        rate: WireVector?, gravity: WireVector = WireVector(x: 0, y: 0, z: 9.8), user: WireVector = WireVector(x: 0, y: 0, z: 0),
        attitude: (w: Double, x: Double, y: Double, z: Double) = (1, 0, 0, 0)
    ) -> WireDeviceMotion {
        WireDeviceMotion(
            attitude: attitude, referenceFrame: .gameRotationVector, rotationRate: rate, gravity: gravity, userAcceleration: user,
            time: Timestamp(seconds: 0))
    }

    @Test("M1: a fused motion's accelerometer reading (gravity + user acceleration) is the accelerometer override's reading (W3C's frame and sign are Sextant's)")
    func motionMapsToAccelerometer() {
        var picture = Self.picture(.notDetermined)
        #expect(picture.pageCommands.contains(PageSensor.accelerometer.override), "overridden before the first reading")
        let motion = Self.fused(rate: nil, gravity: WireVector(x: -9.5, y: 1.25, z: 1.5), user: WireVector(x: 0, y: 0, z: 0.5))
        let command = picture.apply(.deviceMotion(motion))
        #expect(command.first?.params == ["type": "accelerometer", "reading": ["xyz": ["x": -9.5, "y": 1.25, "z": 2.0]]])
        #expect(command.count == 1, "without a gyroscope, the accelerometer only: \(command)")
        // A page attached later gets the override and the latest reading.
        #expect(picture.pageCommands.contains(command[0]))
        #expect(!picture.pageCommands.contains(PageSensor.linearAcceleration.override), "no linear acceleration without a gyroscope")
    }

    @Test("issue 40.7: the first rate enables the gyroscope, linear acceleration and gravity; each fused motion then reads the rate, the user's acceleration and gravity")
    func rotationRateMapsToGyroscope() {
        var picture = Self.picture(.notDetermined)
        #expect(!picture.pageCommands.contains(PageSensor.gyroscope.override), "not overridden before the first rate: devicemotion would wait for it")
        let rate = WireVector(x: 0.5, y: -0.25, z: 1.5)
        let user = WireVector(x: 0.25, y: 0, z: 0)
        #expect(picture.apply(.deviceMotion(Self.fused(rate: nil))).count == 1)
        let command = picture.apply(.deviceMotion(Self.fused(rate: rate, user: user)))
        #expect(Array(command[1...3]) == BrowserPicture.gyroscopeOverrides)
        #expect(command[4] == PageSensor.gyroscope.reading(rate))
        #expect(command[4].params == ["type": "gyroscope", "reading": ["xyz": ["x": 0.5, "y": -0.25, "z": 1.5]]])
        #expect(command[5] == PageSensor.linearAcceleration.reading(user) && command[6] == PageSensor.gravity.reading(WireVector(x: 0, y: 0, z: 9.8)))
        let again = picture.apply(.deviceMotion(Self.fused(rate: rate, user: user)))
        #expect(!again.contains(PageSensor.gyroscope.override), "enabled once")
        #expect(picture.pageCommands.contains(PageSensor.gravity.override) && picture.pageCommands.contains(PageSensor.gyroscope.reading(rate)))
    }

    @Test("issue 40.7: with a gyroscope the relative orientation is the fused attitude; the absolute one is it turned to the compass heading (H1's azimuth)")
    func attitudeMapsToOrientation() {
        var picture = Self.picture(.notDetermined)
        // Tilted 30° (top raised), turned 40° counter-clockwise: z(40°)·x(30°), half angles 20° and 15°.
        let (ca, sa) = (cos(20 * Double.pi / 180), sin(20 * Double.pi / 180))
        let (cb, sb) = (cos(15 * Double.pi / 180), sin(15 * Double.pi / 180))
        let q: (w: Double, x: Double, y: Double, z: Double) = (ca * cb, ca * sb, sa * sb, sa * cb)
        _ = picture.apply(.deviceMotion(Self.fused(rate: WireVector(x: 0, y: 0, z: 0), attitude: q)))
        #expect(picture.relativeOrientation == PageAttitude.Rotation(x: q.x, y: q.y, z: q.z, w: q.w))
        #expect(picture.absoluteOrientation == nil)
        _ = picture.apply(.heading(WireHeading(magnetic: 200, trueHeading: nil, accuracy: 5, time: Timestamp(seconds: 0))))
        // Heading 200 is alpha 160: z(160°)·x(30°).
        let expected = PageAttitude.rotation(alpha: 160, beta: 30, gamma: 0)
        let seen = picture.absoluteOrientation
        // A quaternion and its negation are the same rotation.
        let close = [1.0, -1.0].contains { sign in
            [seen?.x, seen?.y, seen?.z, seen?.w].enumerated().allSatisfy { index, value in
                abs((value ?? .nan) - sign * [expected.x, expected.y, expected.z, expected.w][index]) < 1e-9
            }
        }
        #expect(close, "\(String(describing: seen)) is not \(expected)")
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
