import SextantProtocol

/// The motion and environment streams an app hears, as the platforms' background rules
/// tell them apart: a sensor's reporting mode on Android, Core Motion's or UIKit's on iOS.
public enum MotionStream: Sendable, CaseIterable {
    /// `motion.start`: the accelerometer (continuous).
    case accelerometer
    /// `deviceMotion.start`: the fused attitude (continuous sensors fused).
    case deviceMotion
    /// `altimeter.start`: the barometer (continuous on Android, `CMAltimeter` on iOS).
    case altimeter
    /// `light.start`, `proximity.start` (on-change).
    case light, proximity
    /// `activity.start`, `activity.transitions.start`: Core Motion's activity on iOS, Play
    /// services' activity recognition (a PendingIntent, not a sensor) on Android.
    case activity, activityTransitions
    /// `pedometer.start`: `CMPedometer` on iOS, the step counter (on-change) on Android.
    case pedometer
}

/// Where an app is, as the background rules read it.
public struct MotionAppSituation: Sendable, Equatable {
    public var foreground: Bool
    /// Android: the app runs a foreground service (docs/platforms.md AN13, AN40).
    public var foregroundService: Bool
    /// iOS: the app is kept running in the background by a location session that delivers
    /// to it there (I8, I12, I15); otherwise iOS suspends it.
    public var runsInBackground: Bool

    public init(foreground: Bool, foregroundService: Bool = false, runsInBackground: Bool = false) {
        self.foreground = foreground
        self.foregroundService = foregroundService
        self.runsInBackground = runsInBackground
    }
}

/// Whether a motion or environment event may reach an app now, by its platform's rules
/// (docs/platforms.md AN40 for Android, I15 for iOS): every stream in the foreground; in the
/// background what the platform delivers there.
public enum MotionDelivery {
    public static func mayDeliver(_ stream: MotionStream, to app: MotionAppSituation, on platform: DevicePlatform) -> Bool {
        if app.foreground { return true }
        switch platform {
        case .ios: return IOSMotionRules.deliversInBackground(stream, running: app.runsInBackground)
        case .android: return AndroidMotionRules.deliversInBackground(stream, foregroundService: app.foregroundService)
        }
    }

    /// The least interval (s) between two readings of `stream` an app gets, for the interval
    /// it asked (docs/platforms.md AN41); iOS caps nothing.
    public static func interval(_ requested: Double, for stream: MotionStream, on platform: DevicePlatform, declaration: MotionDeclaration) -> Double {
        guard let api = platform.androidAPI else { return requested }
        return AndroidMotionRules.samplingInterval(requested, for: stream, api: api, declaration: declaration)
    }
}
