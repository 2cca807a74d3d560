import SextantProtocol

/// The visit service's numbers (RULES V1–V5), each a `sextantd` option.
public struct VisitSettings: Sendable, Equatable {
    /// Metres: the device stays within this distance of a stay's first fix (`--visit-radius`).
    public var radius: Double
    /// Seconds of stay that make a visit, in sample time (`--visit-duration`).
    public var minimumStay: Double

    public static let radiusRange: ClosedRange<Double> = 10...10_000
    public static let minimumStayRange: ClosedRange<Double> = 1...86_400

    public init(radius: Double = 100, minimumStay: Double = 300) {
        self.radius = radius
        self.minimumStay = minimumStay
    }

    var minimumStayNanoseconds: Int64 { Int64((minimumStay * 1e9).rounded()) }
}

/// A place the device stayed at: `CLVisit`'s members. `departure` is nil while the device
/// is still there (`CLVisit`'s `distantFuture`).
public struct Visit: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres around the coordinate that held every fix of the stay up to the arrival, and
    /// no less than the least accurate of those fixes' own `hAcc`.
    public var horizontalAccuracy: Double
    public var arrival: Timestamp
    public var departure: Timestamp?

    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double, arrival: Timestamp, departure: Timestamp? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.arrival = arrival
        self.departure = departure
    }
}

/// Decides the device's visits from its fixes, in sample time (so a trace gives the same
/// visits at every replay speed). One for the device: a visit is where the device stayed,
/// whichever app listens.
public struct VisitDetector: Sendable, Equatable {
    public let settings: VisitSettings
    /// The fixes since the stay's first one, all within `radius` of it.
    private var stay: Stay?
    /// The visit under way, once arrived.
    public private(set) var current: Visit?
    private var lastTime: Timestamp?

    struct Stay: Sendable, Equatable {
        var anchor: LocationFix
        var lastInside: Timestamp
        var latitudeSum: Double
        var longitudeSum: Double
        var count: Double
        /// The farthest any fix of the stay was from the anchor.
        var farthest: Double
        var worstAccuracy: Double

        init(_ fix: LocationFix) {
            anchor = fix
            lastInside = fix.time
            latitudeSum = fix.latitude
            longitudeSum = fix.longitude
            count = 1
            farthest = 0
            worstAccuracy = fix.horizontalAccuracy
        }

        mutating func add(_ fix: LocationFix, distance: Double) {
            lastInside = fix.time
            latitudeSum += fix.latitude
            longitudeSum += fix.longitude
            count += 1
            farthest = max(farthest, distance)
            worstAccuracy = max(worstAccuracy, fix.horizontalAccuracy)
        }

        /// V2's visit: the mean of the fixes, and a radius that holds them all (the mean's
        /// distance from the anchor plus the farthest fix's).
        func visit() -> Visit {
            let latitude = latitudeSum / count
            let longitude = longitudeSum / count
            let offset = Geo.distance(lat1: anchor.latitude, lon1: anchor.longitude, lat2: latitude, lon2: longitude)
            return Visit(
                latitude: latitude, longitude: longitude, horizontalAccuracy: max(offset + farthest, worstAccuracy), arrival: anchor.time)
        }
    }

    public init(settings: VisitSettings = VisitSettings()) {
        self.settings = settings
    }

    /// The visit `fix` begins or ends, if any: an arrival (departure nil) or a departure.
    /// V1: a stay begins at a fix and holds every later fix within `radius` of it.
    /// V2: arrival at the first fix that makes the stay last `minimumStay`.
    /// V3: departure at the first fix outside the radius after an arrival, with the time of
    /// the last fix inside; that fix begins the next stay.
    /// V4: before an arrival a fix outside the radius begins a new stay.
    /// V5: a fix older than the last one (a new replay) starts afresh, with no event.
    public mutating func observe(_ fix: LocationFix) -> Visit? {
        defer { lastTime = fix.time }
        if let lastTime, fix.time < lastTime {
            stay = Stay(fix)
            current = nil
            return nil
        }
        guard var stay else {
            self.stay = Stay(fix)
            return nil
        }
        let distance = Geo.distance(stay.anchor, fix)
        guard distance <= settings.radius else {
            self.stay = Stay(fix)
            guard var visit = current else { return nil }
            current = nil
            visit.departure = stay.lastInside
            return visit
        }
        stay.add(fix, distance: distance)
        self.stay = stay
        guard current == nil, let stayed = fix.time.nanoseconds(since: stay.anchor.time), stayed >= settings.minimumStayNanoseconds else {
            return nil
        }
        let visit = stay.visit()
        current = visit
        return visit
    }
}
