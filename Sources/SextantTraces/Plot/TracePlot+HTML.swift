import Foundation
import SextantCore
import SextantProtocol

extension TracePlot {
    /// Fixes handed to the page's script at most (evenly chosen), for its tooltips.
    static let maximumPageFixes = 20_000
    /// Rows of the page's event list at most.
    static let maximumListedEvents = 5_000

    /// One row of the page's event list: a change of a lane's state, an app's
    /// authorization, a prompt opened or closed.
    struct ListedEvent {
        var t: Double
        var app: String?
        var what: String
        /// The lane it is drawn on.
        var lane: Int
        /// Its line in the events file, which orders events of one time (0: the trace's own).
        var line = 0
    }

    /// A single self-contained HTML page: the SVG inline, the trace's figures, the event
    /// list, and a script of its own that makes the picture interactive. Its
    /// Content-Security-Policy lets nothing load but the tiles of `tiles`, when given.
    public func html() -> String {
        let style = PlotPageAssets.style, script = PlotPageAssets.script
        let images = ["data:"] + (tiles.map { [$0.origin] } ?? [])
        let policy = "default-src 'none'; script-src \(PlotSHA256.cspSource(script)); style-src \(PlotSHA256.cspSource(style)); img-src \(images.joined(separator: " "))"
        let listed = listedEvents()
        let help = "Hover a fix on the map or a moment on the lanes for its time and values; the wheel or the buttons zoom the map, a drag pans it, a double click shows it whole. A row of the event list marks its moment."
        let basemap = tiles.map { "<p class=\"help\">Basemap tiles from \(SVGCanvas.escape($0.origin)) (--tiles).</p>" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(SVGCanvas.escape(policy))">
            <title>\(SVGCanvas.escape(title))</title>
            <style>\(style)</style>
            </head><body><h1>\(SVGCanvas.escape(title))</h1>
            <p class="help">\(help)</p>\(basemap)
            <div class="tools"><button id="zoom-in" type="button">+</button><button id="zoom-out" type="button">−</button><button id="zoom-reset" type="button">whole map</button></div>
            <div id="plot">
            \(svg())</div>
            <div id="tip" hidden></div>
            <table class="figures">
            \(figureRows())
            </table>
            <h2>Events</h2>
            \(eventTable(listed))
            <script type="application/json" id="plot-data">\(pageData(listed))</script>
            <script>\(script)</script>
            </body></html>

            """
    }

    private func figureRows() -> String {
        let summary = TraceSummary(trace)
        var rows = [
            ("Start", trace.start.rfc3339), ("Duration", String(format: "%.3f s", trace.duration)),
            ("Samples", summary.samples.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")),
            ("Distance", String(format: "%.1f m", summary.motion.distance)),
        ]
        if let speed = summary.motion.speed {
            rows.append(("Speed", String(format: "min %.2f, median %.2f, max %.2f m/s", speed.minimum, speed.median, speed.maximum)))
        }
        return rows.map { "<tr><th>\(SVGCanvas.escape($0.0))</th><td>\(SVGCanvas.escape($0.1))</td></tr>" }.joined(separator: "\n")
    }

    private func eventTable(_ listed: [ListedEvent]) -> String {
        let rows = listed.prefix(Self.maximumListedEvents).map { event in
            let at = trace.start.adding(nanoseconds: Int64((event.t * 1e9).rounded())).rfc3339
            let cells = ["+" + NiceNumber.clock(event.t, step: 0.1), at, event.app ?? "", event.what].map { "<td>\(SVGCanvas.escape($0))</td>" }.joined()
            return "<tr data-t=\"\(event.t)\">\(cells)</tr>"
        }
        let more = listed.count > Self.maximumListedEvents ? "<p>and \(listed.count - Self.maximumListedEvents) more events not listed</p>" : ""
        return "<table id=\"events\"><thead><tr><th>from start</th><th>time</th><th>app</th><th>event</th></tr></thead><tbody>\n"
            + rows.joined(separator: "\n") + "\n</tbody></table>" + more
    }

    /// The lanes' changes and the apps' decisions and prompts, in time order.
    func listedEvents() -> [ListedEvent] {
        var listed: [ListedEvent] = []
        for (lane, (name, segments)) in [("orientation", timelines.orientation), ("posture", timelines.posture), ("GPS", timelines.gps)].enumerated() {
            listed += segments.map { ListedEvent(t: $0.from, what: "\(name) \($0.label)", lane: lane) }
        }
        listed += laneEvents()
        let firstAppLane = traceLaneNames.count
        let lanes = Dictionary(uniqueKeysWithValues: events.apps.prefix(Self.maximumAppLanes).enumerated().map { ($1, firstAppLane + $0) })
        for change in events.authorizations {
            let accuracy = change.allowsLocations ? " (\(change.accuracy ?? "full") accuracy)" : ""
            listed.append(ListedEvent(t: seconds(change.time), app: change.app, what: "authorization \(change.status)\(accuracy)", lane: lanes[change.app] ?? -1, line: change.line))
        }
        for prompt in events.prompts {
            let what = [prompt.kind, prompt.level].compactMap { $0 }.joined(separator: ", ")
            listed.append(ListedEvent(t: seconds(prompt.opened), app: prompt.app, what: "prompt \(prompt.id) opened (\(what))", lane: lanes[prompt.app] ?? -1, line: prompt.openedLine))
            if prompt.isClosed {
                let outcome = prompt.choice.map { "answered \($0)" } ?? "cancelled"
                listed.append(ListedEvent(t: seconds(prompt.closedAt), app: prompt.app, what: "prompt \(prompt.id) \(outcome)", lane: lanes[prompt.app] ?? -1, line: prompt.closedLine))
            }
        }
        return listed.enumerated().sorted { ($0.element.t, $0.element.line, $0.offset) < ($1.element.t, $1.element.line, $1.offset) }.map(\.element)
    }

    /// The data block the page's script reads. `<` is written as `\u003c`, so that no
    /// string in it (an app id) can close the script element.
    private func pageData(_ listed: [ListedEvent]) -> String {
        let stride = max(1, locations.count / Self.maximumPageFixes)
        let fixes: [JSONValue] = Swift.stride(from: 0, to: locations.count, by: stride).map { index in
            let (offset, fix) = locations[index]
            return [
                .double(Double(offset) / 1e9), .double(fix.latitude), .double(fix.longitude), .double(fix.horizontalAccuracy),
                JSONValue(fix.speed), JSONValue(fix.course), JSONValue(fix.altitude), .string(fix.time.rfc3339), JSONValue(index),
            ]
        }
        let f = mapFrame
        let map: JSONValue = [
            "x": .double(f.x), "y": .double(f.y), "w": .double(f.width), "h": .double(f.height),
            "lat": .double(projection.centre.latitude), "lon": .double(projection.centre.longitude),
            "cos": .double(cos(projection.centre.latitude * .pi / 180)), "scale": .double(projection.scale),
        ]
        let lanes: JSONValue = [
            "x": .double(laneX), "w": .double(laneWidth), "duration": .double(trace.duration), "height": .double(Self.laneHeight),
            "top": .double(firstLaneY), "bottom": .double(laneY(laneNames.count)),
        ]
        let listedJSON: [JSONValue] = listed.map { event in
            var item: [String: JSONValue] = ["t": .double(event.t), "what": .string(event.what)]
            if let app = event.app { item["app"] = .string(app) }
            if event.lane >= 0 { item["y"] = .double(laneY(event.lane)) }
            return .object(item)
        }
        let data: JSONValue = [
            "map": map, "lanes": lanes, "fixes": .array(fixes), "fixCount": JSONValue(locations.count), "events": .array(listedJSON),
            "tiles": JSONValue(tiles?.template),
        ]
        return data.serialized().replacingOccurrences(of: "<", with: "\\u003c")
    }
}
