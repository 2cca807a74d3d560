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
    /// The latest fused motion (a `deviceMotion` event): what the accelerometer read, with
    /// gravity and the user's acceleration apart, the attitude and the rate; none before the first.
    public var fused: WireDeviceMotion?
    /// The latest gyroscope reading (a `deviceMotion` event's `rotationRate`), rad/s, none
    /// before the first: from the first on, the pages loaded have the sensors it brings.
    public var rotationRate: WireVector?
    /// The latest ambient light, lux (a `light` event), none before the first.
    public var light: Double?

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

    /// What a page is told as the bridge attaches to it: every override in force, each
    /// sensor's enabled before its latest reading.
    public var pageCommands: [CDPCommand] {
        var commands = [geolocationOverride]
        if let interface { commands.append(Self.screenOrientation(interface)) }
        commands += [PageSensor.relativeOrientation.override, PageSensor.absoluteOrientation.override] + orientationCommands
        if let posture { commands.append(Self.postureOverride(posture)) }
        if rotationRate != nil { commands += Self.gyroscopeOverrides + gyroscopeReadings }
        commands.append(PageSensor.accelerometer.override)
        if let fused { commands.append(PageSensor.accelerometer.reading(fused.accelerationIncludingGravity)) }
        commands.append(PageSensor.ambientLight.override)
        if let light { commands.append(PageSensor.ambientLight.reading(single: light)) }
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
        case .deviceMotion(let motion):
            return applying(motion)
        case .light(let reading):
            light = reading.lux
            return [PageSensor.ambientLight.reading(single: reading.lux)]
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

    /// `navigator.devicePosture`: W3C knows `continuous` and `folded`; a hinge laid flat is
    /// continuous, closed or half opened is folded.
    public static func postureOverride(_ state: PostureState) -> CDPCommand {
        let type = state == .flat ? "continuous" : "folded"
        return CDPCommand("Emulation.setDevicePostureOverride", ["posture": ["type": .string(type)]], to: .everyPage)
    }
}
