import Foundation
import SextantCore
import SextantProtocol

/// A picture of a trace: the path on a map (scale bar, north arrow, start and end, accuracy
/// circles, time ticks), and under it the timelines of device orientation, posture and GPS
/// state over the trace's time, plus what apps received when events are given.
///
/// The picture is always `width` × `height` pixels, whatever the trace, so that it lays
/// out the same in a report and a test can check its size.
public struct TracePlot {
    public static let width = 960
    public static let height = 720
    /// App lanes drawn at most; further apps are named in a note.
    static let maximumAppLanes = 3

    let trace: Trace
    let title: String
    let events: PlotEvents
    /// The fixes drawn: the trace's, or those a GNSS profile reported for them.
    let locations: [(offset: Int64, fix: LocationFix)]
    /// The true fixes where a GNSS profile moved them, drawn beside; else empty.
    let truth: [(offset: Int64, fix: LocationFix)]
    let timelines: TraceTimelines
    let projection: PlotProjection
    let timeStep: Double
    /// Where the lanes begin: right of the widest name (an app id), within bounds.
    let laneX: Double
    var laneWidth: Double { Self.laneRight - laneX }
    /// A basemap's tile URL template for the HTML page (`{z}`, `{x}`, `{y}`), or none.
    let tiles: TileTemplate?
    /// The regions drawn on the map, and what the daemon's engine decides of them over the fixes.
    let regions: [PlotRegion]
    let crossings: [RegionCrossing]
    let heading: HeadingTimeline
    /// The time-zone engine's decisions along the fixes, when a table was given.
    let zoneChanges: [ZoneChangeMark]
    let hasTimeZoneLane: Bool
    /// The lanes of the motion and environment kinds the trace carries, if any.
    let motion: MotionLanes
    /// The map's frame: it gives up a lane's height for each lane beyond the usual ones
    /// (regions, heading, time zone, the motion kinds'), so that the picture keeps its size.
    let mapFrame: (x: Double, y: Double, width: Double, height: Double)
    let firstLaneY: Double

    static let laneRight = 940.0, laneHeight = 24.0, laneGap = 8.0

    /// Fails with a message when the trace has no location to draw. `regions`: drawn on the
    /// map, their crossings on a lane of their own. `gnss`: a profile applied to the trace's
    /// fixes, whose reported fixes are drawn beside the true ones (as are those of the
    /// trace's own `gnss.profile` control lines). `timeZones`: the zone decided along the
    /// fixes, marked on the map where it changes and on a lane of its own.
    public init(
        trace: Trace, title: String, events: PlotEvents = PlotEvents(), tiles: TileTemplate? = nil, regions: [PlotRegion] = [],
        gnss: PlotGNSSProfile? = nil, timeZones: PlotTimeZones? = nil
    ) throws(TraceExportError) {
        let fixes = try ReportedFixes(trace, profile: gnss)
        locations = fixes.reported
        truth = fixes.truth
        guard !locations.isEmpty else {
            throw TraceExportError(truth.isEmpty ? "\(title): the trace has no location to plot" : "\(title): the GNSS profile reported no fix to plot")
        }
        self.trace = trace
        self.title = title
        self.events = events
        timelines = TraceTimelines(trace, withoutFix: fixes.withoutFix)
        self.regions = regions
        crossings = RegionCrossing.decide(regions, over: locations)
        heading = HeadingTimeline(trace, fixes: locations)
        zoneChanges = ZoneChangeMark.decide(timeZones, over: locations, start: trace.start)
        hasTimeZoneLane = timeZones != nil
        motion = MotionLanes(trace)
        let extraLanes = Double((regions.isEmpty ? 0 : 1) + (heading.hasSamples ? 1 : 0) + (hasTimeZoneLane ? 1 : 0) + motion.lanes.count)
        mapFrame = (x: 20.0, y: 40.0, width: 920.0, height: 420.0 - extraLanes * (Self.laneHeight + Self.laneGap))
        firstLaneY = 482.0 - extraLanes * (Self.laneHeight + Self.laneGap)
        projection = PlotProjection(fitting: (locations + truth).map { GeoPoint(latitude: $0.fix.latitude, longitude: $0.fix.longitude) }, into: mapFrame)
        let widestApp = events.apps.prefix(Self.maximumAppLanes).map { PlotText.width($0, size: 11, bold: true) }.max() ?? 0
        laneX = min(max(150, 20 + widestApp + 10), 280)
        timeStep = NiceNumber.timeStep(duration: max(trace.duration, 1), pixelsPerSecond: (Self.laneRight - laneX) / max(trace.duration, 1), size: 10)
        self.tiles = tiles
    }

    /// The picture as an SVG document.
    public func svg() -> String {
        var canvas = SVGCanvas(width: Self.width, height: Self.height)
        canvas.rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height), fill: "#ffffff")
        drawHeader(&canvas)
        drawMap(&canvas)
        drawTimelines(&canvas)
        return canvas.document(title: "Sextant trace \(title)")
    }

    private func drawHeader(_ canvas: inout SVGCanvas) {
        let summary = TraceSummary(trace)
        let metres = summary.motion.distance
        let distance = metres >= 10_000 ? String(format: "%.1f km", metres / 1000) : String(format: "%.0f m", metres)
        let figures = String(format: "%@ · %.1f s · %d fixes · %@", trace.start.rfc3339, trace.duration, locations.count, distance)
        canvas.text(figures, x: 940, y: 24, size: 11, anchor: .end, fill: "#555")
        // A long file name keeps its start and end, clear of the figures.
        let room = 920 - PlotText.width(figures, size: 11) - 16
        let fitting = max(8, Int(room / PlotText.width("x", size: 15, bold: true)))
        canvas.text(title.count <= fitting ? title : title.prefix(fitting / 2 - 1) + "…" + title.suffix(fitting - fitting / 2), x: 20, y: 24, size: 15, bold: true)
    }

    func pixel(_ fix: LocationFix) -> (x: Double, y: Double) { projection.pixel(GeoPoint(latitude: fix.latitude, longitude: fix.longitude)) }

    /// x of a time (seconds from the start) on the timelines.
    func timeX(_ t: Double) -> Double { laneX + laneWidth * (trace.duration > 0 ? min(max(t / trace.duration, 0), 1) : 0) }
}
