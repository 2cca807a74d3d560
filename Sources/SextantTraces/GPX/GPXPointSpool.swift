import SextantCore
import SextantProtocol

/// The points of a GPX file as the parser ends them, in three spool files (track points,
/// route points, waypoints) instead of memory: 80 bytes a point on disk, nothing per point
/// in memory. Which list a trace is made of is known only at the end of the file.
final class GPXPointSpool: GPXPointCollector {
    var time: Timestamp?
    var rootLine = 1
    let segments: SpoolFile
    let routes: SpoolFile
    let waypoints: SpoolFile
    /// The first record of the open segment or route.
    private var segmentStart: Int?
    private var routeStart: Int?
    /// The first write that failed (the parser's callbacks cannot throw).
    private(set) var failure: TraceError?

    init(for path: String) throws(TraceError) {
        segments = try SpoolFile(for: path)
        routes = try SpoolFile(for: path)
        waypoints = try SpoolFile(for: path)
    }

    func open(_ kind: GPXListKind) {
        // A list opened inside one of its kind drops that one's points, as in memory.
        if kind == .segment {
            if let segmentStart { attempt { () throws(TraceError) in try segments.truncate(to: segmentStart) } }
            segmentStart = segments.count
        } else {
            if let routeStart { attempt { () throws(TraceError) in try routes.truncate(to: routeStart) } }
            routeStart = routes.count
        }
    }

    func close(_ kind: GPXListKind) {
        if kind == .segment { segmentStart = nil } else { routeStart = nil }
    }

    func isOpen(_ kind: GPXListKind) -> Bool { kind == .segment ? segmentStart != nil : routeStart != nil }

    func add(_ point: GPXPoint) {
        switch point.element {
        case "trkpt":
            guard let segmentStart else { return }
            attempt { () throws(TraceError) in try segments.append(Self.record(point, startsList: segments.count == segmentStart)) }
        case "rtept":
            // A file's routes are one path: only the very first point starts it.
            guard routeStart != nil else { return }
            attempt { () throws(TraceError) in try routes.append(Self.record(point, startsList: routes.count == 0)) }
        default:
            attempt { () throws(TraceError) in try waypoints.append(Self.record(point, startsList: waypoints.count == 0)) }
        }
    }

    private func attempt(_ body: () throws(TraceError) -> Void) {
        guard failure == nil else { return }
        do throws(TraceError) { try body() } catch { failure = error }
    }

    /// The spool the trace is made of (tracks, else routes, else waypoints), flushed.
    func chosen(path: String) throws(TraceError) -> SpoolFile {
        if let failure { throw failure }
        for spool in [segments, routes, waypoints] where spool.count > 0 {
            try spool.flush()
            return spool
        }
        throw TraceError(path: path, line: rootLine, reason: "no points: the file has no trkpt, rtept or wpt")
    }

    static let elements = ["trkpt", "rtept", "wpt"]

    /// lat, lon, ele, hdop, vdop, speed, course, time, line, flags (which of ele … time
    /// are there, bits 0–5; starts a list, bit 6; the element, bits 8–9).
    static func record(_ p: GPXPoint, startsList: Bool) -> [UInt64] {
        let optionals = [p.elevation, p.hdop, p.vdop, p.speed, p.course]
        var flags: UInt64 = 0
        for (bit, value) in optionals.enumerated() where value != nil { flags |= 1 << UInt64(bit) }
        if p.time != nil { flags |= 1 << 5 }
        if startsList { flags |= 1 << 6 }
        flags |= UInt64(elements.firstIndex(of: p.element) ?? 2) << 8
        return [p.latitude.bitPattern, p.longitude.bitPattern] + optionals.map { ($0 ?? 0).bitPattern }
            + [UInt64(bitPattern: p.time?.nanoseconds ?? 0), UInt64(bitPattern: Int64(p.line)), flags]
    }

    static func point(_ r: ArraySlice<UInt64>) -> (point: GPXPoint, startsList: Bool) {
        let w = Array(r)
        let flags = w[9]
        func optional(_ k: Int) -> Double? { flags & (1 << UInt64(k - 2)) != 0 ? Double(bitPattern: w[k]) : nil }
        var p = GPXPoint(latitude: Double(bitPattern: w[0]), longitude: Double(bitPattern: w[1]), line: Int(Int64(bitPattern: w[8])), element: elements[Int((flags >> 8) & 3) % 3])
        p.elevation = optional(2)
        p.hdop = optional(3)
        p.vdop = optional(4)
        p.speed = optional(5)
        p.course = optional(6)
        if flags & (1 << 5) != 0 { p.time = Timestamp(nanoseconds: Int64(bitPattern: w[7])) }
        return (p, flags & (1 << 6) != 0)
    }
}

/// The points of a spool file, walked as many times as asked.
struct SpooledGPXPoints: GPXPointSequence {
    let file: SpoolFile

    func forEach(_ body: (GPXPoint, Bool) throws(TraceError) -> Void) throws(TraceError) {
        try file.forEach { record throws(TraceError) in
            let (point, startsList) = GPXPointSpool.point(record)
            try body(point, startsList)
        }
    }
}
