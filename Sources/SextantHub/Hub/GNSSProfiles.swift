import SextantCore
import SextantProtocol

/// `--simulated-flag`: what a fix's `simulated` says (RULES N7).
public enum SimulatedFlag: String, Sendable, CaseIterable {
    /// By the source: replay and hand-set fixes are simulated, a live gpsd's only when its
    /// receiver says so (TPV `status` 8), a recording's that says (GnssLogger's
    /// `MockLocation`) as it says.
    case auto
    case always
    case never

    /// `sourceSays`: the source's own word on the fix (a live gpsd's STATUS_SIM);
    /// `recorded`: the trace's (`LocationFix.recordedSimulated`).
    func isSimulated(from source: SourceName, sourceSays: Bool, recorded: Bool? = nil) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let recorded { return recorded }
            return source != .gpsd || sourceSays
        }
    }
}

/// The GNSS profile in force (RULES N1–N6) and its engine for each source: each source's
/// fixes have their own times, so each walks its own error. Changed by `set`, by the
/// replay (a start begins afresh, a seek is a hot start) and by the fixes that pass.
final class GNSSProfiles {
    private(set) var spec: GNSSProfileSpec?
    private(set) var seed: UInt64
    let simulatedFlag: SimulatedFlag
    private var engines: [SourceName: GNSSDegradation] = [:]
    /// The made-up sky of the seed in force (N8), and the sources that record their own.
    private var synthesis: SkySynthesis
    private var recordsSky: Set<SourceName> = []
    /// The second of each source's last synthesized sky: one sky a second of fix time.
    private var lastSkySecond: [SourceName: Int64] = [:]
    /// The sources whose latest fix offered went through (N4a: a loss is told once).
    private var hadFix: Set<SourceName> = []

    init(spec: GNSSProfileSpec?, seed: UInt64, simulatedFlag: SimulatedFlag) {
        self.spec = spec
        self.seed = seed
        self.simulatedFlag = simulatedFlag
        self.synthesis = SkySynthesis(seed: seed)
    }

    /// A new profile, or none: every source starts afresh with it.
    func set(_ spec: GNSSProfileSpec?, seed: UInt64) {
        self.spec = spec
        if seed != self.seed || synthesis.seed != seed { synthesis = SkySynthesis(seed: seed) }
        self.seed = seed
        engines = [:]
        lastSkySecond = [:]
        hadFix = []
    }

    /// The fix `source` reports for `truth`: flagged simulated or not, through the profile
    /// when one is in force; nil while the profile gives no fix (an outage, a first fix).
    func report(_ truth: LocationFix, from source: SourceName) -> LocationFix? {
        var fix = truth
        fix.simulated = simulatedFlag.isSimulated(from: source, sourceSays: truth.simulated, recorded: truth.recordedSimulated)
        guard let spec else { return fix }
        let reported = engines[source, default: GNSSDegradation(spec: spec, seed: seed)].report(fix)
        if reported != nil { hadFix.insert(source) }
        return reported
    }

    /// N4a: whether `source`'s receiver just lost its fix to a tunnel or an outage (it had
    /// one at the fix before, and sees no satellite now): true once a loss.
    func fixLost(from source: SourceName) -> Bool {
        guard engines[source]?.reception == .blocked else { return false }
        return hadFix.remove(source) != nil
    }

    /// The source starts over (a new replay): its next fix is the profile's origin again.
    func sourceRestarted(_ source: SourceName) {
        engines[source] = nil
        hadFix.remove(source)
        recordsSky.remove(source)
        lastSkySecond[source] = nil
    }

    /// `source` brought a sky of its own: no sky is made up for it until it starts over.
    func skyRecorded(from source: SourceName) { recordsSky.insert(source) }

    /// The sky beside the fix `source` just offered at `time` (N8), when one is due: made
    /// up from the seed through the profile's conditions (open sky without one), seen as
    /// the profile's receiver sees it now; at most one a second of the fix's time. None for
    /// a source that records its own, nor for a live gpsd (its sky is the receiver's).
    func synthesizedSky(at time: Timestamp, from source: SourceName) -> SkyView? {
        guard source != .gpsd, !recordsSky.contains(source) else { return nil }
        let second = time.nanoseconds / 1_000_000_000
        guard lastSkySecond[source] != second else { return nil }
        lastSkySecond[source] = second
        let conditions = spec.map { SkyConditions.of($0.preset) } ?? .openSky
        let reception = spec == nil ? SkyReception.fix : engines[source]?.reception ?? .acquiring
        return synthesis.sky(at: time, conditions: conditions, reception: reception)
    }

    /// The source jumped in time (a replay's seek): its next fix is a hot start (N5).
    func sourceSeeked(_ source: SourceName) { engines[source]?.seek() }

    var state: GNSSProfileState {
        GNSSProfileState(profile: spec?.description, seed: seed, simulatedFlag: simulatedFlag.rawValue)
    }
}
