import Foundation
import SextantCore

/// Places locations on the plot's map: a local equirectangular projection (east and north
/// in metres from the box's centre, longitude shrunk by the cosine of the centre's
/// latitude), scaled alike on both axes to fit a rectangle of pixels. Good for the few
/// kilometres of a test trace; a trace across the antimeridian is drawn the long way round.
struct PlotProjection {
    let frame: (x: Double, y: Double, width: Double, height: Double)
    let centre: GeoPoint
    /// Pixels per metre.
    let scale: Double

    /// The smallest extent shown, in metres, so that a trace standing still is a dot in a
    /// readable neighbourhood rather than an infinite zoom.
    static let minimumExtent = 100.0

    init(fitting points: [GeoPoint], into frame: (x: Double, y: Double, width: Double, height: Double), margin: Double = 0.08) {
        self.frame = frame
        let south = points.map(\.latitude).min() ?? 0, north = points.map(\.latitude).max() ?? 0
        let west = points.map(\.longitude).min() ?? 0, east = points.map(\.longitude).max() ?? 0
        centre = GeoPoint(latitude: (south + north) / 2, longitude: (west + east) / 2)
        let metresPerDegree = Geo.earthRadius * .pi / 180
        let extentX = max(Self.minimumExtent, (east - west) * metresPerDegree * cos(centre.latitude * .pi / 180))
        let extentY = max(Self.minimumExtent, (north - south) * metresPerDegree)
        scale = min(frame.width * (1 - 2 * margin) / extentX, frame.height * (1 - 2 * margin) / extentY)
    }

    /// Metres east and north of the centre.
    func metres(_ p: GeoPoint) -> (east: Double, north: Double) {
        let metresPerDegree = Geo.earthRadius * .pi / 180
        return ((p.longitude - centre.longitude) * metresPerDegree * cos(centre.latitude * .pi / 180), (p.latitude - centre.latitude) * metresPerDegree)
    }

    /// Pixels, y down.
    func pixel(_ p: GeoPoint) -> (x: Double, y: Double) {
        let m = metres(p)
        return (frame.x + frame.width / 2 + m.east * scale, frame.y + frame.height / 2 - m.north * scale)
    }
}

/// Round numbers for scales and ticks.
enum NiceNumber {
    /// The largest of 1, 2, 5 × 10ⁿ not above `value` (value > 0).
    static func atMost(_ value: Double) -> Double {
        let power = pow(10, (log10(value)).rounded(.down))
        for factor in [5.0, 2.0, 1.0] where factor * power <= value { return factor * power }
        return power
    }

    /// Tick steps in seconds a person reads easily, up to four weeks.
    static let timeSteps: [Double] = [
        0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
        172_800, 345_600, 604_800, 1_209_600, 2_419_200,
    ]

    /// The smallest step whose labels, `pixelsPerSecond` apart, leave `gap` pixels between
    /// neighbours at font size `size`; past four weeks, a whole number of weeks.
    static func timeStep(duration: Double, pixelsPerSecond: Double, size: Double, gap: Double = 28) -> Double {
        for step in timeSteps where duration / step <= 200 {
            let widest = stride(from: 0, through: duration, by: step).map { PlotText.width(clock($0, step: step), size: size) }.max() ?? 0
            if step * pixelsPerSecond >= widest + gap { return step }
        }
        let week = 604_800.0
        return max(1, (duration / 5 / week).rounded(.up)) * week
    }

    /// `12 s`, `2.5 s` (a step under a second), `3:05`, `1:02:03`, `2 d 04:00`: time from the start.
    static func clock(_ seconds: Double, step: Double = 1) -> String {
        if step < 1 && seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return String(format: "%d:%02d", whole / 60, whole % 60) }
        if whole < 86400 { return String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60) }
        let days = whole / 86400, rest = whole % 86400
        return rest == 0 ? "\(days) d" : String(format: "%d d %02d:%02d", days, rest / 3600, rest / 60 % 60)
    }

    /// `50 m`, `2 km`.
    static func distance(_ metres: Double) -> String {
        metres >= 1000 ? "\(ExportNumberText.trim(metres / 1000)) km" : "\(ExportNumberText.trim(metres)) m"
    }
}

enum ExportNumberText {
    /// 2 → "2", 0.5 → "0.5".
    static func trim(_ value: Double) -> String { value == value.rounded() ? String(Int64(value)) : String(value) }
}
