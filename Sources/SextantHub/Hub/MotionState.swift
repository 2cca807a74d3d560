import SextantCore
import SextantProtocol

/// Which source each sensor kind's engine hears, the engines that decide orientation and
/// posture (RULES O1–O11, P1–P4) and what they last decided. Changed only by the readings
/// the hub routes and the rotation lock (`Hub+Samples`, `Hub+Motion`), through the
/// operations below.
final class MotionState {
    private var arbiters = SensorArbiters()
    private(set) var judge = OrientationJudge()
    private(set) var rotationLock = false

    /// Whether a reading of `kind` from a source of `rank` is heard (hand > replay > live).
    func admits(_ kind: SensorKind.ID, _ rank: SensorArbiter.Rank, at now: Int64) -> Bool {
        arbiters.admits(kind, rank, at: now)
    }

    /// A value of `kind` is held by hand: only the manual source is heard until `release`.
    func hold(_ kind: SensorKind.ID) { arbiters.hold(kind) }

    /// The hand lets go of `kind`: the replay or the hardware is heard again at once.
    func release(_ kind: SensorKind.ID) { arbiters.release(kind) }

    /// The device orientation's change this reading decides, if any (O1–O5).
    func judgeAcceleration(_ reading: Acceleration, at time: Timestamp) -> DeviceOrientationChange? {
        judge.judge(reading, at: time)
    }

    /// Sets the rotation lock (O9); false when it already was so.
    func setRotationLock(_ enabled: Bool) -> Bool {
        guard enabled != rotationLock else { return false }
        rotationLock = enabled
        return true
    }
}
