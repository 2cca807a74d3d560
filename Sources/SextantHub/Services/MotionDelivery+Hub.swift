import SextantCore
import SextantProtocol

/// Where each session is, as the platforms' motion rules read it (docs/platforms.md AN40,
/// AN41, I15): the services ask here, the rules themselves are SextantCore's `MotionDelivery`.
extension Hub {
    /// Whether an event of `stream` may reach `session` now (AN40 on Android, I15 on iOS).
    func mayHearMotion(_ session: AppSession, _ stream: MotionStream) -> Bool {
        let foreground = appState(of: session) == .foreground
        if foreground { return true }
        let situation = MotionAppSituation(
            foreground: false, foregroundService: authorization.android.foregroundServices.contains(session.id),
            runsInBackground: session.fixes.streams && decidedAccuracy(of: session) != nil)
        return MotionDelivery.mayDeliver(stream, to: situation, on: configuration.platform)
    }

    /// The interval (s) `session` gets for `stream` when it asked `requested` (AN41).
    func motionInterval(_ requested: Double, for stream: MotionStream, of session: AppSession) -> Double {
        MotionDelivery.interval(requested, for: stream, on: configuration.platform, declaration: session.motionDeclaration)
    }
}
