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
        return try walk(lists, path: path, speed: speed, interval: interval, fileTime: document.time)
    }

    /// Lists of points as a trace, by the rules above (times kept or walked at `speed`,
    /// speed and course from the legs): what GeoJSON and KML paths are read by too.
    static func walk(_ lists: [[GPXPoint]], path: String, speed: Double, interval: Double?, fileTime: Timestamp?) throws(TraceError) -> Trace {
        var samples: [TraceSample] = []
        let walk = GPXSampleWalk(points: GPXPointLists(lists: lists), path: path, speed: speed, interval: interval, fileTime: fileTime)
        let start = try walk.run { samples.append($0) }
        return Trace(start: start, samples: samples)
    }

    /// A GeoJSON or KML document's path, walked: its lines with times, else its points when
    /// they have times, else its lines, else its points (the same path written as a timed
    /// track and as a line without times is read by its track); nil when it has none.
    static func walkDocument(timedLines: [[GPXPoint]], lines: [[GPXPoint]], points: [GPXPoint], path: String, options: TraceLoadOptions)
        throws(TraceError) -> Trace?
    {
        let lists: [[GPXPoint]]
        if !timedLines.isEmpty {
            lists = timedLines
        } else if points.contains(where: { $0.time != nil }) {
            lists = [points]
        } else if !lines.isEmpty {
            lists = lines
        } else if !points.isEmpty {
            lists = [points]
        } else {
            return nil
        }
        return try walk(lists, path: path, speed: options.gpxSpeed, interval: options.gpxInterval, fileTime: nil)
    }

    /// A point's fix; `leg` is the leg that arrives at it (or, for the first point of a
    /// list, the one that leaves it), with the times of its ends.
    static func fix(_ point: GPXPoint, time: Timestamp, leg: ((point: GPXPoint, time: Timestamp), (point: GPXPoint, time: Timestamp))?) -> LocationFix {
        var speed = point.speed
        var course = point.course
        if let (a, b) = leg {
            let metres = distance(a.point, b.point)
            let seconds = Double(b.time.nanoseconds - a.time.nanoseconds) / 1e9
            // A derived speed out of range (two points a nanosecond apart) is no speed.
            if speed == nil, seconds > 0, metres / seconds <= LocationFix.maximumSpeed { speed = metres / seconds }
            if course == nil, metres > 0 {
                course = Geo.bearing(lat1: a.point.latitude, lon1: a.point.longitude, lat2: b.point.latitude, lon2: b.point.longitude)
            }
        }
        return LocationFix(
            latitude: point.latitude, longitude: point.longitude, altitude: point.elevation,
            horizontalAccuracy: point.horizontalAccuracy ?? TraceConventions.accuracy(dilution: point.hdop) ?? LocationFix.defaultHorizontalAccuracy,
            verticalAccuracy: point.verticalAccuracy ?? TraceConventions.accuracy(dilution: point.vdop), speed: speed, course: course, time: time)
    }

    static func distance(_ a: GPXPoint, _ b: GPXPoint) -> Double {
        Geo.distance(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
    }
}
