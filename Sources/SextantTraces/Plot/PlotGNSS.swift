import SextantCore
import SextantProtocol

/// A GNSS profile for the plot to apply to a trace's fixes, as the daemon applies it to a
/// replay (RULES N1–N6): the same engine, spec and seed give the same reported fixes.
public struct PlotGNSSProfile: Sendable, Equatable {
    public var spec: GNSSProfileSpec
    public var seed: UInt64
    /// The daemon's `--seed` unless told.
    public static let defaultSeed: UInt64 = 1

    public init(spec: GNSSProfileSpec, seed: UInt64 = defaultSeed) {
        self.spec = spec
        self.seed = seed
    }
}

/// The fixes a receiver reports for a trace's true fixes: through the profile given to the
/// plot from the start, and through the `gnss.profile` control lines of the trace itself (a
/// recording made with a profile holds the true fixes and the profile it was set to, N6),
/// each from the sample it plays before, as a replay plays them.
struct ReportedFixes {
    /// The fixes reported, with their offsets.
    var reported: [(offset: Int64, fix: LocationFix)] = []
    /// The true fixes, when a profile was in force for any of them; else empty.
    var truth: [(offset: Int64, fix: LocationFix)] = []
    /// The indices of the trace's samples whose true fix got no reported one (N4).
    var withoutFix: Set<Int> = []

    init(_ trace: Trace, profile: PlotGNSSProfile?) throws(TraceExportError) {
        var engine = profile.map { GNSSDegradation(spec: $0.spec, seed: $0.seed) }
        let seed = profile?.seed ?? PlotGNSSProfile.defaultSeed
        let controls = trace.controls.filter { $0.method == Method.gnssProfile }
        var nextControl = 0
        var profiled = false
        for index in trace.samples.indices {
            while nextControl < controls.count, controls[nextControl].beforeSample <= index {
                engine = try Self.engine(for: controls[nextControl], seed: seed)
                nextControl += 1
            }
            guard case .location(let truth) = trace.samples[index].value else { continue }
            let offset = trace.samples[index].offset
            guard engine != nil else {
                reported.append((offset, truth))
                continue
            }
            profiled = true
            self.truth.append((offset, truth))
            if let fix = engine?.report(truth) { reported.append((offset, fix)) } else { withoutFix.insert(index) }
        }
        if !profiled { self.truth = [] }
    }

    /// The engine a `gnss.profile` control line sets (none for `off`), afresh as the daemon's
    /// is; its seed, or the plot's `--seed` standing for the daemon's.
    private static func engine(for control: TraceControl, seed: UInt64) throws(TraceExportError) -> GNSSDegradation? {
        let request: GNSSProfileSet
        do throws(RPCError) {
            request = try GNSSProfileSet(Params(control.params))
        } catch {
            throw TraceExportError("\(control.path):\(control.line): \(error.message)")
        }
        guard request.profile != GNSSProfileSet.off else { return nil }
        switch GNSSProfileSpec.parse(request.profile) {
        case .success(let spec): return GNSSDegradation(spec: spec, seed: request.seed ?? seed)
        case .failure(let problem): throw TraceExportError("\(control.path):\(control.line): \(problem)")
        }
    }
}
