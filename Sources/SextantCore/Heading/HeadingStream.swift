import SextantProtocol

/// One app's heading stream (RULES H7): iOS `headingFilter`, degrees. A heading is
/// delivered when it moved at least `filter` from the last one delivered to the stream,
/// compared after the turn to the app's interface orientation; 0 delivers every sample that
/// differs from the last delivered (a compass held at rest says nothing new 50 times a second).
public struct HeadingStream: Sendable, Equatable {
    /// Core Location's default `headingFilter`.
    public static let defaultFilter = 1.0
    /// A filter of half a turn or more would deliver the first heading only.
    public static let filterRange = 0.0...180.0

    public let filter: Double
    public private(set) var lastDelivered: Double?
    private var lastAccuracy: Double??

    public init(filter: Double = HeadingStream.defaultFilter) {
        precondition(Self.filterRange.contains(filter), "a heading filter is within 0...180 degrees")
        self.filter = filter
    }

    /// Whether the heading (degrees) of `accuracy` leaves for this stream; if so it is the
    /// new reference. With filter 0 one that repeats the last delivered, accuracy and all, stays.
    public mutating func admits(_ heading: Double, accuracy: Double? = nil) -> Bool {
        if let last = lastDelivered {
            let moved = HeadingMath.separation(heading, last)
            if moved < filter { return false }
            if filter == 0, moved == 0, lastAccuracy == .some(accuracy) { return false }
        }
        lastDelivered = heading
        lastAccuracy = .some(accuracy)
        return true
    }
}

/// The model's field at the places asked, recomputed only when the place or the date moved
/// enough to matter (RULES H6): 0.05° of latitude or longitude, 1 km of height, a day.
/// Declination changes by well under 0.1° over such steps away from the magnetic poles.
public struct MagneticModelCache: Sendable {
    public static let angleStep = 0.05
    public static let heightStep = 1000.0
    public static let yearStep = 1.0 / 365

    public let model: WorldMagneticModel
    private var place: (latitude: Double, longitude: Double, height: Double, year: Double)?
    private var cached: GeomagneticElements?

    public init(model: WorldMagneticModel = .wmm2025) { self.model = model }

    /// The field at a place (degrees, metres above the ellipsoid) and instant.
    public mutating func elements(latitude: Double, longitude: Double, height: Double, at time: Timestamp)
        -> GeomagneticElements
    {
        let year = WorldMagneticModel.decimalYear(time)
        if let place, let cached, abs(place.latitude - latitude) < Self.angleStep,
            HeadingMath.separation(place.longitude, longitude) < Self.angleStep,
            abs(place.height - height) < Self.heightStep, abs(place.year - year) < Self.yearStep
        {
            return cached
        }
        let elements = model.elements(latitude: latitude, longitude: longitude, height: height, year: year)
        place = (latitude, longitude, height, year)
        cached = elements
        return elements
    }
}
