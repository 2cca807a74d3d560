import SextantCore
import SextantProtocol

/// A region the plot draws, and the app that monitors it: an entry of `regions.list`'s
/// answer, or a region as `region.monitor` takes it (then monitored for
/// ``PlotRegion/defaultApp``).
public struct PlotRegion: Sendable, Equatable {
    public var app: String
    public var region: CircularRegion
    /// The app a region of a file that names none is monitored for.
    public static let defaultApp = "plot"

    public init(app: String, region: CircularRegion) {
        self.app = app
        self.region = region
    }

    /// The regions a running daemon monitors (`regions.list`).
    public init(_ entry: AppRegion) { self.init(app: entry.app, region: CircularRegion(entry.region)) }

    /// Reads a regions file: a JSON list of regions as `regions.add` takes them (`identifier`,
    /// `lat`, `lon`, `radius`, and optionally `app`, `notifyOnEntry`, `notifyOnExit`,
    /// `loiteringDelay`, `notifyInitialState`, `hysteresis`), which is also what
    /// `sextantctl regions list --json` prints; or `region.list`'s answer, `{"regions": [...]}`.
    /// A bad entry fails with its place in the list and the field, bounded as the daemon
    /// bounds it (RULES R8).
    public static func parse(_ text: String, path: String) throws(PlotInputError) -> [PlotRegion] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw PlotInputError("\(path): not JSON: \(error)")
        }
        guard let list = value.arrayValue ?? value["regions"]?.arrayValue else {
            throw PlotInputError("\(path): expected a JSON list of regions (as regions.add takes them) or {\"regions\": [...]}")
        }
        var regions: [PlotRegion] = []
        for (index, item) in list.enumerated() {
            let place = "\(path): regions[\(index)]"
            do throws(RPCError) {
                let entry = try Params(result: item)
                let app = entry.has("app") ? try entry.appID("app") : defaultApp
                let region = CircularRegion(try WireRegion(entry))
                if let problem = region.problem { throw RPCError.invalidParams(problem) }
                regions.append(PlotRegion(app: app, region: region))
            } catch {
                throw PlotInputError("\(place)\(item["identifier"]?.stringValue.map { " (\"\($0)\")" } ?? ""): \(error.message)")
            }
        }
        return regions
    }
}

/// Input the plot cannot use: names the file and what in it is wrong.
public struct PlotInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One region transition as the daemon decides it, where the plot draws it.
struct RegionCrossing {
    /// Seconds from the trace's start: the deciding fix's time (R7).
    var t: Double
    var transition: RegionTransition
    /// The fix that decided it (R5: for a jump across a region, the fix after the jump).
    var fix: LocationFix

    /// `shop enter` and, for another app than the file's default, the app.
    var summary: String {
        let what = "\(transition.identifier) \(transition.kind.name)"
        guard case .state(let state) = transition.kind else { return what }
        return "\(what) \(state.rawValue)"
    }

    /// The transitions the daemon's own `RegionMonitor` (RULES R1–R9) decides over these
    /// fixes, every region monitored from before the first fix, as a daemon that holds them
    /// when a replay starts.
    static func decide(_ regions: [PlotRegion], over locations: [(offset: Int64, fix: LocationFix)]) -> [RegionCrossing] {
        guard !regions.isEmpty else { return [] }
        var monitor = RegionMonitor()
        for entry in regions { monitor.restore(entry.region, for: entry.app) }
        var crossings: [RegionCrossing] = []
        for (offset, fix) in locations {
            for transition in monitor.evaluate(fix) {
                crossings.append(RegionCrossing(t: Double(offset) / 1e9, transition: transition, fix: fix))
            }
        }
        return crossings
    }
}
