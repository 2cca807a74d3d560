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
    let locations: [(offset: Int64, fix: LocationFix)]
    let timelines: TraceTimelines
    let projection: PlotProjection
    let timeStep: Double

    static let mapFrame = (x: 20.0, y: 40.0, width: 920.0, height: 420.0)
    static let laneX = 150.0, laneWidth = 790.0, firstLaneY = 482.0, laneHeight = 24.0, laneGap = 8.0

    /// Fails with a message when the trace has no location to draw.
    public init(trace: Trace, title: String, events: PlotEvents = PlotEvents()) throws(TraceExportError) {
        locations = trace.locations
        guard !locations.isEmpty else { throw TraceExportError("\(title): the trace has no location to plot") }
        self.trace = trace
        self.title = title
        self.events = events
        timelines = TraceTimelines(trace)
        projection = PlotProjection(fitting: locations.map { GeoPoint(latitude: $0.fix.latitude, longitude: $0.fix.longitude) }, into: Self.mapFrame)
        timeStep = NiceNumber.timeStep(duration: max(trace.duration, 1), count: 10)
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

    /// A single self-contained HTML page: the SVG inline and the trace's figures.
    public func html() -> String {
        let summary = TraceSummary(trace)
        var rows = [
            ("Start", trace.start.rfc3339), ("Duration", String(format: "%.3f s", trace.duration)),
            ("Samples", summary.samples.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")),
            ("Distance", String(format: "%.1f m", summary.motion.distance)),
        ]
        if let speed = summary.motion.speed {
            rows.append(("Speed", String(format: "min %.2f, median %.2f, max %.2f m/s", speed.minimum, speed.median, speed.maximum)))
        }
        let table = rows.map { "<tr><th>\(SVGCanvas.escape($0.0))</th><td>\(SVGCanvas.escape($0.1))</td></tr>" }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(SVGCanvas.escape(title))</title>
            <style>body{font-family:sans-serif;margin:1em;color:#222}th{text-align:left;padding-right:1em}svg{max-width:100%;height:auto}</style>
            </head><body><h1>\(SVGCanvas.escape(title))</h1>
            \(svg())
            <table>
            \(table)
            </table></body></html>

            """
    }

    private func drawHeader(_ canvas: inout SVGCanvas) {
        let summary = TraceSummary(trace)
        canvas.text(title, x: 20, y: 24, size: 15, bold: true)
        let metres = summary.motion.distance
        let distance = metres >= 10_000 ? String(format: "%.1f km", metres / 1000) : String(format: "%.0f m", metres)
        let figures = String(format: "%@ · %.1f s · %d fixes · %@", trace.start.rfc3339, trace.duration, locations.count, distance)
        canvas.text(figures, x: 940, y: 24, size: 11, anchor: .end, fill: "#555")
    }

    func pixel(_ fix: LocationFix) -> (x: Double, y: Double) { projection.pixel(GeoPoint(latitude: fix.latitude, longitude: fix.longitude)) }

    /// x of a time (seconds from the start) on the timelines.
    func timeX(_ t: Double) -> Double { Self.laneX + Self.laneWidth * (trace.duration > 0 ? min(max(t / trace.duration, 0), 1) : 0) }
}
