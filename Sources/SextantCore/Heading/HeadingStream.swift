import SextantProtocol

/// One app's heading stream (RULES H7): iOS `headingFilter`, degrees. A heading is
/// delivered when it moved at least `filter` from the last one delivered to the stream,
/// compared after the turn to the app's interface orientation; 0 delivers every sample.
public struct HeadingStream: Sendable, Equatable {
    /// Core Location's default `headingFilter`.
    public static let defaultFilter = 1.0
    /// A filter of half a turn or more would deliver the first heading only.
    public static let filterRange = 0.0...180.0

    public let filter: Double
    public private(set) var lastDelivered: Double?

    public init(filter: Double = HeadingStream.defaultFilter) {
        precondition(Self.filterRange.contains(filter), "a heading filter is within 0...180 degrees")
        self.filter = filter
    }

    /// Whether the heading (degrees) leaves for this stream; if so it is the new reference.
    public mutating func admits(_ heading: Double) -> Bool {
        if let last = lastDelivered, HeadingMath.separation(heading, last) < filter { return false }
        lastDelivered = heading
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
