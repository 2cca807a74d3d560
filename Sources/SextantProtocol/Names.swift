/// The names the protocol uses, as Swift enums whose raw values are the wire strings.

public enum AuthorizationStatus: String, Sendable, CaseIterable, Codable {
    case notDetermined, restricted, denied, authorizedWhenInUse, authorizedAlways

    /// Whether this status lets an app receive locations at all (RULES L8 narrows it by app state).
    public var isAuthorized: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}

public enum LocationAccuracy: String, Sendable, CaseIterable, Codable {
    case full, reduced
}

public enum AppState: String, Sendable, CaseIterable, Codable {
    case foreground, background
}

/// The level an app asks for in `authorization.request`.
public enum AuthorizationLevel: String, Sendable, CaseIterable, Codable {
    case whenInUse, always
}

/// What a person (or the auto-answer policy) picks in a prompt or an alert.
public enum PromptChoice: String, Sendable, CaseIterable, Codable {
    // Authorization prompts (RULES L5).
    case allowOnce, allowWhileUsing, allowAlways, dontAllow
    // Services-off alerts (RULES L7).
    case settings, cancel
    // Android's location dialog (docs/platforms.md AN3).
    case whileUsing, onlyThisTime, allowAllTheTime
    // The iOS upgrade prompt (docs/platforms.md I3): Keep Only While Using / Change to Always Allow.
    case keepWhileUsing, changeToAlways
    // The iOS temporary full-accuracy prompt (I9).
    case allow, deny

    public var isAlertChoice: Bool { self == .settings || self == .cancel }

    /// A button of Android's dialog only; an Android dialog takes the iOS names too (AN3).
    public var isAndroidChoice: Bool { self == .whileUsing || self == .onlyThisTime || self == .allowAllTheTime }

    /// A choice of the authorization prompt (L5), the only ones a prompt policy may name (L12).
    public var isAuthorizationChoice: Bool { self == .allowOnce || self == .allowWhileUsing || self == .allowAlways || self == .dontAllow }
}

public enum PromptKind: String, Sendable, CaseIterable, Codable {
    case authorization, servicesOff
    /// Android's location permission dialog (docs/platforms.md AN3).
    case androidLocation
    /// iOS: Keep Only While Using / Change to Always Allow (docs/platforms.md I3, I5).
    case alwaysUpgrade
    /// iOS: a purpose key's one-time full accuracy, allow or deny (I9).
    case temporaryFullAccuracy
    /// iOS: the Motion & Fitness prompt, allow (OK) or dontAllow (docs/motion.md A13).
    case motionFitness
    /// Android: the ACTIVITY_RECOGNITION dialog, allow or dontAllow (docs/motion.md A15).
    case androidActivityRecognition
}

public enum DeviceOrientation: String, Sendable, CaseIterable, Codable {
    case unknown, portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown

    /// The four orientations in which the device stands upright (RULES O1).
    public var isUpright: Bool {
        switch self {
        case .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight: return true
        case .unknown, .faceUp, .faceDown: return false
        }
    }
}

public enum InterfaceOrientation: String, Sendable, CaseIterable, Codable {
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight
}

public enum PostureState: String, Sendable, CaseIterable, Codable {
    case closed, halfOpened, flat
}

public enum FoldDirection: String, Sendable, CaseIterable, Codable {
    case vertical, horizontal
}

public enum DeviceProfile: String, Sendable, CaseIterable, Codable {
    case phone, tablet, foldable
}

public enum ReplayState: String, Sendable, CaseIterable, Codable {
    case idle, running, paused, finished, stopped
}

/// Method names, as constants so that a typo is a compile error.
public enum Method {
    // App socket.
    public static let hello = "hello"
    public static let authorizationGet = "authorization.get"
    public static let authorizationRequest = "authorization.request"
    public static let locationStart = "location.start"
    public static let locationStop = "location.stop"
    public static let locationOnce = "location.once"
    public static let orientationStart = "orientation.start"
    public static let orientationStop = "orientation.stop"
    public static let postureStart = "posture.start"
    public static let postureStop = "posture.stop"
    public static let headingStart = "heading.start"
    public static let headingStop = "heading.stop"
    public static let motionStart = "motion.start"
    public static let motionStop = "motion.stop"
    public static let satellitesStart = "satellites.start"
    public static let satellitesStop = "satellites.stop"
    public static let appUpdate = "app.update"
    public static let significantChangesStart = "significantChanges.start"
    public static let significantChangesStop = "significantChanges.stop"
    public static let visitsStart = "visits.start"
    public static let visitsStop = "visits.stop"
    public static let regionMonitor = "region.monitor"
    public static let regionStop = "region.stop"
    public static let regionList = "region.list"
    public static let regionState = "region.state"
    public static let lightStart = "light.start"
    public static let lightStop = "light.stop"
    public static let proximityStart = "proximity.start"
    public static let proximityStop = "proximity.stop"
    public static let altimeterStart = "altimeter.start"
    public static let altimeterStop = "altimeter.stop"
    // Control socket.
    public static let status = "status"
    public static let servicesSet = "services.set"
    public static let permissionsList = "permissions.list"
    public static let permissionsSet = "permissions.set"
    public static let permissionsReset = "permissions.reset"
    public static let permissionsOwners = "permissions.owners"
    public static let permissionsUnbind = "permissions.unbind"
    public static let promptsList = "prompts.list"
    public static let promptsAnswer = "prompts.answer"
    public static let promptsPolicy = "prompts.policy"
    public static let appsList = "apps.list"
    public static let appsUpdate = "apps.update"
    public static let deviceSet = "device.set"
    public static let deviceRotationLock = "device.rotationLock"
    public static let replayStart = "replay.start"
    public static let replayStop = "replay.stop"
    public static let replayStatus = "replay.status"
    public static let replayPause = "replay.pause"
    public static let replayResume = "replay.resume"
    public static let replaySeek = "replay.seek"
    public static let replayStep = "replay.step"
    public static let recordStart = "record.start"
    public static let recordStop = "record.stop"
    public static let gnssProfile = "gnss.profile"
    public static let regionsList = "regions.list"
    public static let regionsAdd = "regions.add"
    public static let regionsRemove = "regions.remove"
    public static let watch = "watch"
    public static let timeZoneGet = "timeZone.get"
    public static let timeZoneStart = "timeZone.start"
    public static let timeZoneStop = "timeZone.stop"
    public static let timeZoneSet = "timeZone.set"
    // Activity and pedometer (RULES A1–A9): app socket, then control socket.
    public static let activityStart = "activity.start"
    public static let activityStop = "activity.stop"
    public static let activityTransitionsStart = "activity.transitions.start"
    public static let activityTransitionsStop = "activity.transitions.stop"
    public static let activityQuery = "activity.query"
    public static let pedometerStart = "pedometer.start"
    public static let pedometerStop = "pedometer.stop"
    public static let pedometerQuery = "pedometer.query"
    public static let activitySet = "activity.set"
    // Motion & Fitness authorization (RULES A11): app socket, then control socket.
    public static let activityAuthorization = "activity.authorization"
    public static let motionPermissionsSet = "motionPermissions.set"
    public static let motionPermissionsList = "motionPermissions.list"
    public static let deviceMotionStart = "deviceMotion.start"
    public static let deviceMotionStop = "deviceMotion.stop"
    // The platforms (docs/platforms.md): control socket.
    public static let permissionsExplain = "permissions.explain"
    // The device's clock (RULES C1–C10): control socket.
    public static let timeGet = "time.get"
    public static let timeSet = "time.set"
    public static let timeAdvance = "time.advance"
    public static let timeReset = "time.reset"
    // iOS temporary full accuracy (docs/platforms.md I9, I10): app socket.
    public static let authorizationRequestTemporaryFullAccuracy = "authorization.requestTemporaryFullAccuracy"
    // iOS diagnostics (docs/platforms.md I13): app socket.
    public static let diagnosticsStart = "diagnostics.start"
    public static let diagnosticsStop = "diagnostics.stop"
    // Motion & Fitness / ACTIVITY_RECOGNITION requested (docs/motion.md A13, A15): app socket.
    public static let activityRequestAuthorization = "activity.requestAuthorization"
    // Android's last known location (docs/platforms.md AN33, AN36): app socket, Android only.
    public static let locationLastKnown = "location.lastKnown"

    /// Every method, app socket's first, in the order of sextant-protocol(7).
    public static let all: [String] = [
        hello, authorizationGet, authorizationRequest, locationStart, locationStop, locationOnce, orientationStart,
        orientationStop, postureStart, postureStop, appUpdate,
        significantChangesStart, significantChangesStop, visitsStart, visitsStop,
        regionMonitor, regionStop, regionList, regionState,
        headingStart, headingStop,
        satellitesStart, satellitesStop,
        motionStart, motionStop,
        lightStart, lightStop, proximityStart, proximityStop,
        altimeterStart, altimeterStop,
        status, servicesSet, permissionsList, permissionsSet, permissionsReset, permissionsOwners, permissionsUnbind,
        promptsList, promptsAnswer, promptsPolicy, appsList, appsUpdate, deviceSet, deviceRotationLock, replayStart,
        replayStop, replayStatus, replayPause, replayResume, replaySeek, replayStep, recordStart, recordStop, gnssProfile,
        watch,
        regionsList, regionsAdd, regionsRemove,
        timeZoneGet, timeZoneStart, timeZoneStop, timeZoneSet,
        activityStart, activityStop, activityTransitionsStart, activityTransitionsStop, activityQuery,
        pedometerStart, pedometerStop, pedometerQuery, activitySet,
        activityAuthorization, motionPermissionsSet, motionPermissionsList,
        deviceMotionStart, deviceMotionStop,
        permissionsExplain,
        timeGet, timeSet, timeAdvance, timeReset,
        authorizationRequestTemporaryFullAccuracy,
        diagnosticsStart, diagnosticsStop,
        activityRequestAuthorization,
        locationLastKnown,
    ]
}

/// Event (notification) names.
public enum Event {
    public static let location = "location"
    public static let authorization = "authorization"
    public static let servicesEnabled = "servicesEnabled"
    public static let deviceOrientation = "deviceOrientation"
    public static let interfaceOrientation = "interfaceOrientation"
    public static let posture = "posture"
    public static let locationUnavailable = "locationUnavailable"
    public static let significantChange = "significantChange"
    public static let visit = "visit"
    public static let region = "region"
    public static let regionUnavailable = "regionUnavailable"
    public static let heading = "heading"
    public static let headingCalibration = "headingCalibration"
    public static let satellites = "satellites"
    public static let motion = "motion"
    public static let activity = "activity"
    public static let activityTransition = "activityTransition"
    public static let pedometer = "pedometer"
    public static let light = "light"
    public static let proximity = "proximity"
    public static let altitude = "altitude"
    public static let deviceMotion = "deviceMotion"
    // Control-socket additions, seen by `watch`.
    public static let prompt = "prompt"
    public static let promptClosed = "promptClosed"
    public static let replay = "replay"
    /// An app session opened, closed or changed, as `apps.list` gives it.
    public static let session = "session"
    /// The device's time zone changed (RULES Z1–Z10).
    public static let timeZone = "timeZone"
    /// The control side moved the device's clock (RULES C1–C10).
    public static let clockChanged = "clockChanged"
    /// Several fixes delivered together (Android profile, docs/platforms.md AN30).
    public static let locations = "locations"
    /// Why a session gets locations or not, on change (iOS profile, docs/platforms.md I13).
    public static let diagnostics = "diagnostics"

    /// Every event, in the order of sextant-protocol(7).
    public static let ordered: [String] = [
        location, authorization, servicesEnabled, deviceOrientation, interfaceOrientation, posture, locationUnavailable,
        significantChange, visit,
        region, regionUnavailable,
        prompt, promptClosed, replay,
        heading, headingCalibration,
        satellites,
        session,
        motion,
        timeZone,
        activity, activityTransition, pedometer,
        light, proximity,
        altitude,
        deviceMotion,
        clockChanged,
        locations,
        diagnostics,
    ]

    /// Every event a `watch` may name in `topics`.
    public static let all = Set(ordered)
}

/// App ids: reverse-DNS, 1 to 255 of `[A-Za-z0-9._-]`.
public enum AppID {
    public static func isValid(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...255).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}

/// The protocol version `hello` reports.
public let sextantProtocolVersion = 1
