import Foundation
import SextantCore
import SextantProtocol

/// The points a GPX trace is made of, in file order, that can be walked more than once:
/// the chosen lists of a document in memory, or a spool file (`GPXPointSpool`).
protocol GPXPointSequence {
    /// Every point, and whether it starts a list (a track segment; a file's routes, or
    /// its waypoints, are one list).
    func forEach(_ body: (GPXPoint, Bool) throws(TraceError) -> Void) throws(TraceError)
}

/// The lists of a document in memory.
struct GPXPointLists: GPXPointSequence {
    var lists: [[GPXPoint]]

    func forEach(_ body: (GPXPoint, Bool) throws(TraceError) -> Void) throws(TraceError) {
        for list in lists {
            for (k, point) in list.enumerated() { try body(point, k == 0) }
        }
    }
}

/// `GPXReader`'s rules for times and values, applied in passes over the points, one point
/// (and the one after it) at a time: what `GPXReader.read` gives, without the points or
/// the samples in memory (see GPXReader for the rules themselves).
struct GPXSampleWalk {
    let points: any GPXPointSequence
    let path: String
    let speed: Double
    let interval: Double?
    let fileTime: Timestamp?

    /// Checks the times and hands every sample to `sink`; answers the trace's start.
    func run(_ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) -> Timestamp {
        var count = 0, timed = 0
        var first: GPXPoint?
        var firstUntimed: GPXPoint?
        try points.forEach { point, _ in
            count += 1
            if first == nil { first = point }
            if point.time != nil { timed += 1 } else if firstUntimed == nil { firstUntimed = point }
        }
        guard let first else { return TraceConventions.fallbackStart }
        let start: Timestamp
        if timed == count {
            try checkTimes()
            start = first.time!
        } else if timed == 0 {
            guard speed.isFinite, speed > 0 else { throw TraceError(path: path, line: first.line, reason: "the GPX speed must be a positive number of m/s, not \(speed)") }
            if let interval, count >= 2 { return try interpolate(interval: interval, firstLine: first.line, sink) }
            start = fileTime ?? TraceConventions.fallbackStart
            var walker = Walker(start: start, speed: speed, path: path)
            try points.forEach { point, _ throws(TraceError) in _ = try walker.time(of: point) }
        } else {
            throw TraceError(path: path, line: firstUntimed!.line, reason: "a point without <time> among points with times")
        }
        try emit(start: start, timed: timed == count, sink)
        return start
    }

    /// Times that go back, then times too far after the first, as `GPXReader` checks them.
    private func checkTimes() throws(TraceError) {
        var firstTime: Timestamp?
        var previous: Timestamp?
        var goesBack: TraceError?
        var tooLate: TraceError?
        try points.forEach { point, _ in
            let time = point.time!
            if goesBack == nil, let previous, time < previous {
                goesBack = TraceError(path: path, line: point.line, reason: "<time> goes back: \(time) after \(previous)")
            }
            if tooLate == nil, let firstTime, (time.nanoseconds(since: firstTime) ?? .max) > Trace.maximumOffset {
                tooLate = TraceError(path: path, line: point.line, reason: "<time> \(time) is more than \(Trace.maximumOffset / 1_000_000_000) s after the first point's \(firstTime)")
            }
            if firstTime == nil { firstTime = time }
            previous = time
        }
        if let error = goesBack ?? tooLate { throw error }
    }

    /// A route walked with a fix every `interval` seconds (`RoutePlanner`, which holds at
    /// most `RoutePlanner.maximumFixes` fixes).
    private func interpolate(interval: Double, firstLine: Int, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) -> Timestamp {
        var waypoints: [RouteWaypoint] = []
        try points.forEach { point, _ in waypoints.append(RouteWaypoint(latitude: point.latitude, longitude: point.longitude, altitude: point.elevation)) }
        let planner = RoutePlanner(waypoints: waypoints, speed: speed, spacing: .interval(seconds: interval), start: fileTime ?? TraceConventions.fallbackStart)
        let trace: Trace
        do {
            trace = try planner.trace()
        } catch {
            throw TraceError(path: path, line: firstLine, reason: error.description)
        }
        for sample in trace.samples { try sink(sample) }
        return trace.start
    }

    /// Every point's fix, each with the leg that arrives at it (the first of a list: the
    /// leg that leaves it), so a point is handed on once the next one is known.
    private func emit(start: Timestamp, timed: Bool, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        typealias Stop = (point: GPXPoint, time: Timestamp)
        var walker = Walker(start: start, speed: speed, path: path)
        var previous: Stop?
        var held: (stop: Stop, startsList: Bool)?
        func handOn(_ current: (stop: Stop, startsList: Bool), next: (stop: Stop, startsList: Bool)?) throws(TraceError) {
            var leg: (Stop, Stop)?
            if !current.startsList, let previous {
                leg = (previous, current.stop)
            } else if current.startsList, let next, !next.startsList {
                leg = (current.stop, next.stop)
            }
            previous = current.stop
            let fix = GPXReader.fix(current.stop.point, time: current.stop.time, leg: leg)
            if let problem = fix.problem { throw TraceError(path: path, line: current.stop.point.line, reason: "<\(current.stop.point.element)>: \(problem)") }
            try sink(TraceSample(offset: current.stop.time.nanoseconds - start.nanoseconds, value: .location(fix)))
        }
        try points.forEach { point, startsList throws(TraceError) in
            let time = timed ? point.time! : try walker.time(of: point)
            let current = (stop: (point: point, time: time), startsList: startsList)
            if let held { try handOn(held, next: current) }
            held = current
        }
        if let held { try handOn(held, next: nil) }
    }

    /// Times for points without any: one after the other at `speed` from `start`. A walk
    /// longer than `Trace.maximumOffset`, or past the last time a timestamp holds, is an
    /// error at the point it reaches too late.
    struct Walker {
        let start: Timestamp
        let speed: Double
        let path: String
        private var previous: GPXPoint?
        private var elapsed = 0.0

        init(start: Timestamp, speed: Double, path: String) {
            self.start = start
            self.speed = speed
            self.path = path
        }

        mutating func time(of point: GPXPoint) throws(TraceError) -> Timestamp {
            defer { previous = point }
            guard let previous else { return start }
            elapsed += GPXReader.distance(previous, point) / speed
            guard let offset = Timestamp.checkedNanoseconds(elapsed * 1e9), offset <= Trace.maximumOffset,
                let time = start.checkedAdding(nanoseconds: offset)
            else {
                throw TraceError(
                    path: path, line: point.line,
                    reason: "walked at \(speed) m/s, this point comes more than \(Trace.maximumOffset / 1_000_000_000) s after the first (or after \(Timestamp.latest))")
            }
            return time
        }
    }
}
