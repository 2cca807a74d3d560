import Foundation
import SextantCore
import SextantProtocol

/// Reads a GPX 1.1 file (1.0 too) as a trace of locations.
///
/// **Which points.** The tracks (`trk`/`trkseg`/`trkpt`, all of them in file order) when
/// the file has any; else its routes (`rte`/`rtept`); else its waypoints (`wpt`). The
/// waypoints of a file with a track are points of interest, not a path, and are left out.
///
/// **Times.** When every point has a `<time>`, the points keep them (they must not go
/// back). When none has one, as in a planned route, the path is walked at `speed` m/s
/// from the file's `metadata/time` (else 2000-01-01T00:00:00Z): each point comes its
/// great-circle distance from the previous one / `speed` after it. A list where some
/// points have a time and others not is an error: there is no honest time to give them.
///
/// **Values.** `ele` is the altitude; `hdop`/`vdop` give `hAcc`/`vAcc` as in NMEA logs
/// (× 5 m), else `hAcc` is Sextant's default 5 m. A point's speed and course are its own
/// `<speed>`/`<course>` (GPX 1.0, or an extension such as Garmin's TrackPointExtension)
/// when it has them, else derived from the leg that arrives at it: haversine distance /
/// time for the speed, the initial bearing of the leg for the course (`Geo`). The first
/// point of a track segment takes its segment's first leg; a leg of zero length gives no
/// course, a leg of zero duration no speed.
///
/// A file that is not well-formed XML, not GPX, or whose points cannot be read is a
/// `TraceError` with the 1-based line of the offending element.
public enum GPXReader {
    /// The walking speed used for routes and waypoints without times (TraceLoadOptions).
    public static let defaultSpeed = 1.4

    /// - Parameter interval: for points without times, interpolate a fix every this many
    ///   seconds along the great circles between them (`RoutePlanner`) instead of
    ///   playing the points alone.
    public static func read(
        _ text: String, path: String, speed: Double = GPXReader.defaultSpeed, interval: Double? = nil
    ) throws(TraceError) -> Trace {
        try read(GPXDocument.parse(text, path: path), path: path, speed: speed, interval: interval)
    }

    /// Reads a file's bytes (`Data(bytesNoCopy:…)` over a loaded file makes no copy).
    public static func read(
        _ data: Data, path: String, speed: Double = GPXReader.defaultSpeed, interval: Double? = nil
    ) throws(TraceError) -> Trace {
        try read(GPXDocument.parse(data, path: path), path: path, speed: speed, interval: interval)
    }

    static func read(_ document: GPXDocument, path: String, speed: Double, interval: Double?) throws(TraceError) -> Trace {
        let lists: [[GPXPoint]]
        if document.trackSegments.contains(where: { !$0.isEmpty }) {
            lists = document.trackSegments.filter { !$0.isEmpty }
        } else if document.routes.contains(where: { !$0.isEmpty }) {
            // Routes are one path: a route's start follows the previous route's end.
            lists = [document.routes.flatMap { $0 }]
        } else if !document.waypoints.isEmpty {
            lists = [document.waypoints]
        } else {
            throw TraceError(path: path, line: document.rootLine, reason: "no points: the file has no trkpt, rtept or wpt")
        }
        let points = lists.flatMap { $0 }
        let timed = points.filter { $0.time != nil }.count
        let times: [Timestamp]
        if timed == points.count {
            times = points.map { $0.time! }
            for i in times.indices.dropFirst() where times[i] < times[i - 1] {
                throw TraceError(path: path, line: points[i].line, reason: "<time> goes back: \(times[i]) after \(times[i - 1])")
            }
            if let i = times.firstIndex(where: { ($0.nanoseconds(since: times[0]) ?? .max) > Trace.maximumOffset }) {
                throw TraceError(path: path, line: points[i].line, reason: "<time> \(times[i]) is more than \(Trace.maximumOffset / 1_000_000_000) s after the first point's \(times[0])")
            }
        } else if timed == 0 {
            guard speed.isFinite, speed > 0 else { throw TraceError(path: path, line: points[0].line, reason: "the GPX speed must be a positive number of m/s, not \(speed)") }
            if let interval, points.count >= 2 { return try interpolate(points, speed: speed, interval: interval, from: document.time, path: path) }
            times = try walk(points, speed: speed, from: document.time ?? TraceConventions.fallbackStart, path: path)
        } else {
            let odd = points.first { $0.time == nil }!
            throw TraceError(path: path, line: odd.line, reason: "a point without <time> among points with times")
        }

        let start = times[0]
        var samples: [TraceSample] = []
        samples.reserveCapacity(points.count)
        var index = 0
        for list in lists {
            for (k, point) in list.enumerated() {
                // The leg that arrives at this point; the first point takes the first leg.
                let leg = list.count < 2 ? nil : (k == 0 ? (index, index + 1) : (index - 1, index))
                let offset = times[index].nanoseconds - start.nanoseconds
                let fix = fix(point, time: times[index], leg: leg, points: points, times: times)
                if let problem = fix.problem { throw TraceError(path: path, line: point.line, reason: "<\(point.element)>: \(problem)") }
                samples.append(TraceSample(offset: offset, value: .location(fix)))
                index += 1
            }
        }
        return Trace(start: start, samples: samples)
    }

    /// Points without times walked as a route, a fix every `interval` seconds.
    static func interpolate(_ points: [GPXPoint], speed: Double, interval: Double, from start: Timestamp?, path: String) throws(TraceError) -> Trace {
        let waypoints = points.map { RouteWaypoint(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.elevation) }
        let planner = RoutePlanner(waypoints: waypoints, speed: speed, spacing: .interval(seconds: interval), start: start ?? TraceConventions.fallbackStart)
        do {
            return try planner.trace()
        } catch {
            throw TraceError(path: path, line: points[0].line, reason: error.description)
        }
    }

    /// Times for points without any: one after the other at `speed`. A walk longer than
    /// `Trace.maximumOffset`, or past the last time a timestamp holds, is an error at the
    /// point it reaches too late (a route of antipodal legs, a speed of 1e-300 m/s).
    static func walk(_ points: [GPXPoint], speed: Double, from start: Timestamp, path: String) throws(TraceError) -> [Timestamp] {
        var times = [start]
        var elapsed = 0.0
        for i in points.indices.dropFirst() {
            elapsed += distance(points[i - 1], points[i]) / speed
            guard let offset = Timestamp.checkedNanoseconds(elapsed * 1e9), offset <= Trace.maximumOffset,
                let time = start.checkedAdding(nanoseconds: offset)
            else {
                throw TraceError(
                    path: path, line: points[i].line,
                    reason: "walked at \(speed) m/s, this point comes more than \(Trace.maximumOffset / 1_000_000_000) s after the first (or after \(Timestamp.latest))")
            }
            times.append(time)
        }
        return times
    }

    static func fix(_ point: GPXPoint, time: Timestamp, leg: (Int, Int)?, points: [GPXPoint], times: [Timestamp]) -> LocationFix {
        var speed = point.speed
        var course = point.course
        if let (a, b) = leg {
            let metres = distance(points[a], points[b])
            let seconds = Double(times[b].nanoseconds - times[a].nanoseconds) / 1e9
            // A derived speed out of range (two points a nanosecond apart) is no speed.
            if speed == nil, seconds > 0, metres / seconds <= LocationFix.maximumSpeed { speed = metres / seconds }
            if course == nil, metres > 0 {
                course = Geo.bearing(lat1: points[a].latitude, lon1: points[a].longitude, lat2: points[b].latitude, lon2: points[b].longitude)
            }
        }
        return LocationFix(
            latitude: point.latitude, longitude: point.longitude, altitude: point.elevation,
            horizontalAccuracy: TraceConventions.accuracy(dilution: point.hdop) ?? LocationFix.defaultHorizontalAccuracy,
            verticalAccuracy: TraceConventions.accuracy(dilution: point.vdop), speed: speed, course: course, time: time)
    }

    static func distance(_ a: GPXPoint, _ b: GPXPoint) -> Double {
        Geo.distance(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
    }
}
