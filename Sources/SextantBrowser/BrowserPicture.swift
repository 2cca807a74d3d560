import Foundation
import SextantProtocol

/// Where a CDP command goes: the browser's own session, or each attached page's.
public enum CDPTarget: Sendable, Equatable {
    case browser
    case everyPage
}

/// One CDP command the bridge sends, and where.
public struct CDPCommand: Sendable, Equatable {
    public var method: String
    public var params: JSONValue
    public var target: CDPTarget

    public init(_ method: String, _ params: JSONValue, to target: CDPTarget) {
        (self.method, self.params, self.target) = (method, params, target)
    }
}

/// Chromium's geolocation permission setting (`Browser.setPermission`'s `setting`).
public enum PermissionSetting: String, Sendable, Equatable {
    case granted, denied, prompt
}

/// What the app's Sextant side says, as the bridge last heard it, and the CDP commands that
/// make a page see the same: a pure value, so the mapping is tested without a browser.
public struct BrowserPicture: Sendable, Equatable {
    /// The page's position: none before the first fix, a fix, or "position unavailable".
    public enum Position: Sendable, Equatable {
        case none
        case fix(WireLocation)
        case unavailable
    }

    public var authorization: AuthorizationResult
    public var servicesEnabled: Bool
    public var position: Position = .none
    public var interface: InterfaceOrientation?
    public var device: DeviceOrientation
    public var heading: Double?
    public var posture: PostureState?
    /// The latest accelerometer reading (`motion`), none before the first.
    public var motion: WireMotion?
    /// The latest gyroscope reading (a `deviceMotion` event's `rotationRate`), rad/s, none before the first.
    public var rotationRate: WireVector?

    public init(
        authorization: AuthorizationResult, servicesEnabled: Bool, interface: InterfaceOrientation?, device: DeviceOrientation,
        posture: PostureState? = nil
    ) {
        (self.authorization, self.servicesEnabled, self.interface, self.device, self.posture) =
            (authorization, servicesEnabled, interface, device, posture)
    }

    /// Granted while Sextant lets the app have locations, prompt while it has not decided,
    /// denied otherwise (services off counts as denied, L1).
    public var permission: PermissionSetting {
        guard servicesEnabled else { return .denied }
        switch authorization.status {
        case .authorizedWhenInUse, .authorizedAlways: return .granted
        case .notDetermined: return .prompt
        case .denied, .restricted: return .denied
        }
    }

    /// Whether Sextant says the page's position is unavailable (an outage while it may
    /// have locations): the only time a page hears POSITION_UNAVAILABLE. Before the first
    /// fix it waits, as a phone's browser waits for its first fix.
    public var inOutage: Bool {
        guard permission == .granted, case .unavailable = position else { return false }
        return true
    }

    /// What Chromium is told as the bridge starts on a browser: the permission.
    public var browserCommands: [CDPCommand] { [Self.setPermission(permission)] }

    /// What a page is told as the bridge attaches to it: every override in force.
    public var pageCommands: [CDPCommand] {
        var commands = [geolocationOverride]
        if let interface { commands.append(Self.screenOrientation(interface)) }
        commands.append(Self.absoluteOrientationOverride)
        commands += orientationCommands
        if let posture { commands.append(Self.postureOverride(posture)) }
        if let rotationRate { commands += [Self.gyroscopeOverride, Self.gyroscopeReading(rotationRate)] }
        commands.append(Self.accelerometerOverride)
        if let motion { commands.append(Self.accelerometerReading(motion)) }
        return commands
    }

    /// Takes one of the app's events in and returns what the browser must be told, in order.
    public mutating func apply(_ event: SextantEvent) -> [CDPCommand] {
        switch event {
        case .authorization(let result):
            return changingPermission { $0.authorization = AuthorizationResult(status: result.status, accuracy: result.accuracy) }
        case .servicesEnabled(let enabled):
            return changingPermission { $0.servicesEnabled = enabled }
        case .location(let location):
            position = .fix(location)
            return permission == .granted ? [geolocationOverride] : []
        case .locationUnavailable:
            position = .unavailable
            return [geolocationOverride]
        case .interfaceOrientation(let change):
            interface = change.orientation
            return [Self.screenOrientation(change.orientation)]
        case .deviceOrientation(let change):
            device = change.orientation
            return orientationCommands
        case .heading(let reading):
            heading = reading.trueHeading ?? reading.magnetic
            return orientationCommands
        case .posture(let change):
            posture = change.state
            return [Self.postureOverride(change.state)]
        case .motion(let reading):
            motion = reading
            return [Self.accelerometerReading(reading)]
        case .deviceMotion(let fused):
            guard let rate = fused.rotationRate else { return [] }
            defer { rotationRate = rate }
            return rotationRate == nil ? [Self.gyroscopeOverride, Self.gyroscopeReading(rate)] : [Self.gyroscopeReading(rate)]
        default:
            return []
        }
    }

    /// A permission change: on a revoke the position is made unavailable before the page is
    /// denied, so that no position reaches it in between (L9); on a grant the last fix follows.
    private mutating func changingPermission(_ change: (inout BrowserPicture) -> Void) -> [CDPCommand] {
        let before = permission
        change(&self)
        let after = permission
        guard after != before else { return [] }
        if before == .granted { return [Self.positionUnavailable, Self.setPermission(after)] }
        if after == .granted { return [Self.setPermission(after), geolocationOverride] }
        return [Self.setPermission(after)]
    }

    // MARK: - The commands

    /// The position a page gets: the fix as app.sock delivered it (full or reduced: the
    /// daemon reduces it), or "position unavailable" before a fix, during an outage and
    /// while the app may not have locations.
    public var geolocationOverride: CDPCommand {
        guard permission == .granted, case .fix(let fix) = position else { return Self.positionUnavailable }
        var params: [String: JSONValue] = [
            "latitude": .double(fix.latitude), "longitude": .double(fix.longitude),
            "accuracy": .double(fix.horizontalAccuracy ?? 5),
        ]
        if let altitude = fix.altitude { params["altitude"] = .double(altitude) }
        if let verticalAccuracy = fix.verticalAccuracy { params["altitudeAccuracy"] = .double(verticalAccuracy) }
        if let course = fix.course { params["heading"] = .double(course) }
        if let speed = fix.speed { params["speed"] = .double(speed) }
        return CDPCommand("Emulation.setGeolocationOverride", .object(params), to: .everyPage)
    }

    /// CDP: an override without a position is "position unavailable".
    public static let positionUnavailable = CDPCommand("Emulation.setGeolocationOverride", [:], to: .everyPage)

    public static func setPermission(_ setting: PermissionSetting) -> CDPCommand {
        CDPCommand("Browser.setPermission", ["permission": ["name": "geolocation"], "setting": .string(setting.rawValue)], to: .browser)
    }

    /// `screen.orientation` for the app's interface orientation: portrait is the natural
    /// orientation (angle 0); landscapeRight (iOS: the device turned counter-clockwise) is
    /// `landscape-primary` at 90°, as on an Android phone turned the same way.
    public static func screenOrientation(_ orientation: InterfaceOrientation) -> CDPCommand {
        let (type, angle): (String, Int64) =
            switch orientation {
            case .portrait: ("portraitPrimary", 0)
            case .landscapeRight: ("landscapePrimary", 90)
            case .portraitUpsideDown: ("portraitSecondary", 180)
            case .landscapeLeft: ("landscapeSecondary", 270)
            }
        let portrait = orientation == .portrait || orientation == .portraitUpsideDown
        let params: JSONValue = [
            "width": .int(portrait ? 390 : 844), "height": .int(portrait ? 844 : 390), "deviceScaleFactor": 0, "mobile": true,
            "screenOrientation": ["type": .string(type), "angle": .int(angle)],
        ]
        return CDPCommand("Emulation.setDeviceMetricsOverride", params, to: .everyPage)
    }

    /// `deviceorientation`'s angles, degrees: beta and gamma from how the device is held (its
    /// orientation from the accelerometer), alpha from the compass heading (W3C: alpha
    /// grows counter-clockwise, so alpha = 360 − heading); alpha 0 while there is none.
    public var orientationAngles: (alpha: Double, beta: Double, gamma: Double) {
        let (beta, gamma): (Double, Double) =
            switch device {
            case .portrait: (90, 0)
            case .portraitUpsideDown: (-90, 0)
            case .landscapeLeft: (0, -90)
            case .landscapeRight: (0, 90)
            case .faceUp, .unknown: (0, 0)
            case .faceDown: (180, 0)
            }
        let alpha = heading.map { (360 - $0).truncatingRemainder(dividingBy: 360) } ?? 0
        return (alpha, beta, gamma)
    }

    /// `deviceorientation` and the generic `RelativeOrientationSensor` (Chromium derives
    /// the sensor's reading from this override).
    public var deviceOrientationOverride: CDPCommand {
        let angles = orientationAngles
        return CDPCommand(
            "DeviceOrientation.setDeviceOrientationOverride",
            ["alpha": .double(angles.alpha), "beta": .double(angles.beta), "gamma": .double(angles.gamma)], to: .everyPage)
    }

    /// The device's orientation as the page reads it: `deviceorientation`, and the absolute
    /// orientation once there is a heading.
    var orientationCommands: [CDPCommand] {
        [deviceOrientationOverride] + (absoluteOrientationReading.map { [$0] } ?? [])
    }

    /// The page's absolute orientation is Sextant's: `deviceorientationabsolute` and the
    /// generic `AbsoluteOrientationSensor` read the override, and have nothing before the
    /// first heading (a phone without a compass has no absolute orientation).
    public static let absoluteOrientationOverride = CDPCommand(
        "Emulation.setSensorOverrideEnabled", ["enabled": true, "type": "absolute-orientation"], to: .everyPage)

    /// The absolute orientation once there is a heading: the rotation of W3C's angles
    /// (alpha about z, then beta about the turned x, then gamma about the turned y) as the
    /// unit quaternion (x, y, z, w) the sensor reports.
    public var absoluteOrientationReading: CDPCommand? {
        guard heading != nil else { return nil }
        let q = Self.quaternion(orientationAngles)
        return CDPCommand(
            "Emulation.setSensorOverrideReadings",
            ["type": "absolute-orientation", "reading": ["quaternion": ["x": .double(q.x), "y": .double(q.y), "z": .double(q.z), "w": .double(q.w)]]],
            to: .everyPage)
    }

    /// z(alpha) · x(beta) · y(gamma), each half-angle quaternion multiplied out.
    static func quaternion(_ angles: (alpha: Double, beta: Double, gamma: Double)) -> (x: Double, y: Double, z: Double, w: Double) {
        let half = Double.pi / 360
        let (ca, sa) = (cos(angles.alpha * half), sin(angles.alpha * half))
        let (cb, sb) = (cos(angles.beta * half), sin(angles.beta * half))
        let (cg, sg) = (cos(angles.gamma * half), sin(angles.gamma * half))
        return (
            x: ca * sb * cg - sa * cb * sg, y: ca * cb * sg + sa * sb * cg,
            z: sa * cb * cg + ca * sb * sg, w: ca * cb * cg - sa * sb * sg
        )
    }

    /// How often the bridge asks for the accelerometer (`motion.start`'s interval): 50 a
    /// second, Android's `SENSOR_DELAY_GAME`; Chromium repeats the latest reading to the
    /// page's `devicemotion` listeners at its own rate (60 a second) in between.
    public static let motionInterval = 0.02

    /// The page's accelerometer is Sextant's: `devicemotion` and the generic `Accelerometer`
    /// read the override. Set before the page's first script, so that a listener added at
    /// load hears it; with no reading yet the page gets no event. Linear acceleration is not
    /// overridden: the page sees what a phone without it gives, `acceleration` null.
    public static let accelerometerOverride = CDPCommand(
        "Emulation.setSensorOverrideEnabled", ["enabled": true, "type": "accelerometer"], to: .everyPage)

    /// `devicemotion`'s `accelerationIncludingGravity`: the reading as it is. W3C's frame is
    /// Sextant's (x to the right of the screen, y to its top, z out of it, the device's
    /// natural orientation whatever the screen's) and its sign too: proper acceleration,
    /// face up at rest (0, 0, +9.81), upright in portrait (0, +9.81, 0).
    public static func accelerometerReading(_ motion: WireMotion) -> CDPCommand {
        CDPCommand(
            "Emulation.setSensorOverrideReadings",
            ["type": "accelerometer", "reading": ["xyz": ["x": .double(motion.x), "y": .double(motion.y), "z": .double(motion.z)]]],
            to: .everyPage)
    }

    /// The page's gyroscope is Sextant's: `devicemotion`'s `rotationRate` and the generic
    /// `Gyroscope` read the override, set once the first rate is heard (with it, and before
    /// the first script of each page attached later). Not before: Chromium's `devicemotion`
    /// waits for a reading of every sensor overridden, so a phone without a gyroscope would
    /// get no `devicemotion` at all; a page loaded before the first rate keeps
    /// `rotationRate` null, as it found the device.
    public static let gyroscopeOverride = CDPCommand(
        "Emulation.setSensorOverrideEnabled", ["enabled": true, "type": "gyroscope"], to: .everyPage)

    /// The generic `Gyroscope`'s reading: rad/s about the device's axes, counter-clockwise
    /// positive, W3C's frame and sign being Sextant's (Chromium gives `devicemotion` the
    /// same rates in °/s as `rotationRate`'s beta, gamma and alpha).
    public static func gyroscopeReading(_ rate: WireVector) -> CDPCommand {
        CDPCommand(
            "Emulation.setSensorOverrideReadings",
            ["type": "gyroscope", "reading": ["xyz": ["x": .double(rate.x), "y": .double(rate.y), "z": .double(rate.z)]]],
            to: .everyPage)
    }

    /// `navigator.devicePosture`: W3C knows `continuous` and `folded`; a hinge laid flat is
    /// continuous, closed or half opened is folded.
    public static func postureOverride(_ state: PostureState) -> CDPCommand {
        let type = state == .flat ? "continuous" : "folded"
        return CDPCommand("Emulation.setDevicePostureOverride", ["posture": ["type": .string(type)]], to: .everyPage)
    }
}
