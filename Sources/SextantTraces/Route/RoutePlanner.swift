import Foundation
import SextantCore
import SextantProtocol

/// A point a route passes through, as a person or a GPX `<rtept>`/`<wpt>` gives it.
public struct RouteWaypoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres; interpolated along a leg when both its ends have one.
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

/// How far apart the generated fixes are: every `seconds` of travel, or every `metres`.
public enum RouteSpacing: Sendable, Equatable {
    case interval(seconds: Double)
    case distance(metres: Double)
}

/// What a route's compass says, when it has one.
public enum RouteHeading: String, Sendable, Equatable, CaseIterable {
    /// The phone held pointing along the way: a `compass` sample with every fix whose
    /// `true` heading is the fix's course (no magnetic heading: a route carries no
    /// declination of its own).
    case course
}

/// A route that cannot be planned, and why, in words a command can print.
public struct RouteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Turns waypoints into a trace of fixes moving along the great circles between them at a
/// constant speed, as `simctl location start` does: a fix every spacing of the path, plus
/// one at every waypoint (so that a corner is passed, not cut) and at the end. Each fix
/// carries the speed and its course along the leg (`GreatCircleLeg`); its time is the
/// distance walked / speed after `start`. With a ``RouteHeading``, each fix is followed by
/// a compass sample at the same time.
public struct RoutePlanner: Sendable {
    public var waypoints: [RouteWaypoint]
    /// Metres per second.
    public var speed: Double
    public var spacing: RouteSpacing
    public var start: Timestamp
    public var horizontalAccuracy: Double
    /// The compass that goes with the fixes; nil for none.
    public var heading: RouteHeading?

    /// At most this many fixes: a trace is held in memory and replayed from it.
    public static let maximumFixes = 1_000_000
    /// A route lasts at most this long (ten years), far within what an offset holds.
    public static let maximumDuration = 10 * 365.25 * 86_400.0

    public init(
        waypoints: [RouteWaypoint], speed: Double, spacing: RouteSpacing, start: Timestamp,
        horizontalAccuracy: Double = LocationFix.defaultHorizontalAccuracy, heading: RouteHeading? = nil
    ) {
        self.heading = heading
        self.waypoints = waypoints
        self.speed = speed
        self.spacing = spacing
        self.start = start
        self.horizontalAccuracy = horizontalAccuracy
    }

    /// The route as a trace of location samples. All or nothing.
    public func trace() throws(RouteError) -> Trace {
        try validate()
        // Legs of zero length (a waypoint given twice) carry no course and are skipped.
        let legs = zip(waypoints, waypoints.dropFirst()).map { (a, b) in
            (GreatCircleLeg(from: GeoPoint(latitude: a.latitude, longitude: a.longitude), to: GeoPoint(latitude: b.latitude, longitude: b.longitude)), a, b)
        }.filter { $0.0.length > 0 }
        guard !legs.isEmpty else { throw RouteError("a route needs two distinct points; every point given is the same place") }
        let step = spacing.metres(atSpeed: speed)
        let total = legs.reduce(0) { $0 + $1.0.length }
        let estimate = total / step + Double(legs.count) + 1
        guard estimate <= Double(Self.maximumFixes) else {
            // Printed, never converted to an integer: the estimate may be beyond any.
            throw RouteError("the route would have \(String(format: "%.0f", estimate)) fixes, more than \(Self.maximumFixes): make the interval or distance larger")
        }
        guard total / speed <= Self.maximumDuration else {
            throw RouteError("the route would last \(total / speed) s, more than ten years: make the speed higher")
        }
        var samples: [TraceSample] = []
        var walked = 0.0
        for (index, (leg, a, b)) in legs.enumerated() {
            // Fixes at multiples of the step within this leg, the leg's start first.
            var along = 0.0
            while along < leg.length - 1e-9 {
                append(sample(on: leg, at: along, from: a, to: b, walked: walked + along), to: &samples)
                // The next multiple of the step past this fix (a micrometre on, against rounding).
                along = (((walked + along + 1e-6) / step).rounded(.down) + 1) * step - walked
            }
            walked += leg.length
            if index == legs.count - 1 { append(sample(on: leg, at: leg.length, from: a, to: b, walked: walked), to: &samples) }
        }
        return Trace(start: start, samples: samples)
    }

    /// A fix, and its heading when the route has one.
    private func append(_ fix: TraceSample, to samples: inout [TraceSample]) {
        samples.append(fix)
        if heading == .course, case .location(let location) = fix.value, let course = location.course {
            samples.append(TraceSample(offset: fix.offset, value: .compass(CompassReading(trueHeading: course))))
        }
    }

    private func validate() throws(RouteError) {
        guard waypoints.count >= 2 else { throw RouteError("a route needs at least two points, got \(waypoints.count)") }
        for (i, w) in waypoints.enumerated() {
            if let problem = LocationFix.problem(latitude: w.latitude, longitude: w.longitude) { throw RouteError("point \(i + 1): \(problem)") }
            if let alt = w.altitude, !alt.isFinite { throw RouteError("point \(i + 1): altitude must be a number") }
        }
        guard speed.isFinite, speed > 0 else { throw RouteError("the speed must be a positive number of m/s, not \(speed)") }
        switch spacing {
        case .interval(let seconds):
            guard seconds.isFinite, seconds > 0 else { throw RouteError("the interval must be a positive number of seconds, not \(seconds)") }
        case .distance(let metres):
            guard metres.isFinite, metres > 0 else { throw RouteError("the distance must be a positive number of metres, not \(metres)") }
        }
        guard horizontalAccuracy.isFinite, horizontalAccuracy >= 0 else { throw RouteError("the accuracy must be 0 or more metres") }
    }

    private func sample(on leg: GreatCircleLeg, at along: Double, from a: RouteWaypoint, to b: RouteWaypoint, walked: Double) -> TraceSample {
        let fraction = min(1, along / leg.length)
        let point = fraction == 1 ? leg.to : leg.point(at: fraction)
        var altitude: Double?
        if let altA = a.altitude, let altB = b.altitude { altitude = altA + (altB - altA) * fraction }
        let offset = Int64((walked / speed * 1e9).rounded())
        let fix = LocationFix(
            latitude: point.latitude, longitude: point.longitude, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
            speed: speed, course: leg.course(at: point), time: start.adding(nanoseconds: offset))
        return TraceSample(offset: offset, value: .location(fix))
    }
}

extension RouteSpacing {
    func metres(atSpeed speed: Double) -> Double {
        switch self {
        case .interval(let seconds): return seconds * speed
        case .distance(let metres): return metres
        }
    }
}
