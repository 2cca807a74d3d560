import SextantProtocol

/// iOS's rule for motion in the background (docs/platforms.md I15).
public enum IOSMotionRules {
    /// I15: Core Motion's handlers (`CMMotionManager`, `CMAltimeter`, `CMMotionActivityManager`,
    /// `CMPedometer`) run while the app runs: in the background only while something keeps
    /// it running there — in Sextant a location session that delivers to it in the
    /// background (I8, I12). A suspended app runs no handler, so it hears nothing
    /// (`CMMotionActivityManager.startActivityUpdates(to:withHandler:)`). Light has no
    /// iOS API and the proximity state serves the app on screen: foreground only.
    public static func deliversInBackground(_ stream: MotionStream, running: Bool) -> Bool {
        switch stream {
        case .light, .proximity: return false
        case .accelerometer, .deviceMotion, .altimeter, .activity, .activityTransitions, .pedometer: return running
        }
    }
}
