import SextantProtocol

/// A circle an app asks to be told about (Core Location's `CLCircularRegion`, Android's
/// `Geofence`): where it is, how big, and which transitions the app wants (RULES R1–R9).
public struct CircularRegion: Sendable, Equatable {
    /// The app's name for it: a region with the same identifier replaces it (R8).
    public var identifier: String
    /// The centre, degrees WGS84.
    public var latitude: Double
    public var longitude: Double
    /// Metres, within ``CircularRegion/radiusRange`` (R8).
    public var radius: Double
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Seconds of sample time inside before a `dwell` (Android's loitering delay, R6);
    /// nil: no dwell.
    public var loiteringDelay: Double?
    /// The first determination is announced as a `state` event (`CLMonitor`; R4).
    public var notifyInitialState: Bool
    /// Metres beyond the radius a fix must be to count as outside (R2); nil: the
    /// monitor's default.
    public var hysteresis: Double?

    public init(
        identifier: String, latitude: Double, longitude: Double, radius: Double, notifyOnEntry: Bool = true,
        notifyOnExit: Bool = true, loiteringDelay: Double? = nil, notifyInitialState: Bool = false, hysteresis: Double? = nil
    ) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.loiteringDelay = loiteringDelay
        self.notifyInitialState = notifyInitialState
        self.hysteresis = hysteresis
    }

    /// The radii a region may have, metres (R8): iOS's `maximumRegionMonitoringDistance`
    /// is of this order; below a metre no receiver can tell inside from outside.
    public static let radiusRange: ClosedRange<Double> = 1...100_000
    /// The hysteresis margins a region may ask for, metres.
    public static let hysteresisRange: ClosedRange<Double> = 0...10_000
    /// The loitering delays a region may ask for, seconds: up to a day.
    public static let loiteringDelayRange: ClosedRange<Double> = 0...86_400
    /// The longest identifier, in UTF-8 bytes.
    public static let identifierMaxBytes = 255

    /// Why the region cannot be monitored, or nil when it can: names the field and its bounds.
    public var problem: String? {
        let bytes = identifier.utf8.count
        if bytes == 0 || bytes > Self.identifierMaxBytes {
            return "\"identifier\" must be 1-\(Self.identifierMaxBytes) bytes of UTF-8"
        }
        if !(-90...90).contains(latitude) { return "\"latitude\" must be within -90...90 degrees" }
        if !(-180...180).contains(longitude) { return "\"longitude\" must be within -180...180 degrees" }
        if !Self.radiusRange.contains(radius) { return "\"radius\" must be within 1...100000 m" }
        if let hysteresis, !Self.hysteresisRange.contains(hysteresis) { return "\"hysteresis\" must be within 0...10000 m" }
        if let loiteringDelay, !Self.loiteringDelayRange.contains(loiteringDelay) {
            return "\"loiteringDelay\" must be within 0...86400 s"
        }
        return nil
    }
}

extension CircularRegion {
    /// The region an app, the control side or a plot's regions file sent.
    public init(_ wire: WireRegion) {
        self.init(
            identifier: wire.identifier, latitude: wire.latitude, longitude: wire.longitude, radius: wire.radius,
            notifyOnEntry: wire.notifyOnEntry, notifyOnExit: wire.notifyOnExit, loiteringDelay: wire.loiteringDelay,
            notifyInitialState: wire.notifyInitialState, hysteresis: wire.hysteresis)
    }
}

/// Where the device is with respect to a region, as last decided (R1–R3).
public enum RegionState: String, Sendable, CaseIterable {
    case inside, outside, unknown
}

/// What an app is told of one of its regions.
public enum RegionTransitionKind: Sendable, Equatable {
    case enter, exit, dwell
    /// The first determination, to an app that asked for it (R4).
    case state(RegionState)

    /// Its `transition` on the wire.
    public var name: String {
        switch self {
        case .enter: return "enter"
        case .exit: return "exit"
        case .dwell: return "dwell"
        case .state: return "state"
        }
    }
}

/// One transition to announce: whose region, which, what, and the time of the fix that
/// decided it (trace time in replay: the same at every speed, R7).
public struct RegionTransition: Sendable, Equatable {
    public var app: String
    public var identifier: String
    public var kind: RegionTransitionKind
    public var time: Timestamp

    public init(app: String, identifier: String, kind: RegionTransitionKind, time: Timestamp) {
        self.app = app
        self.identifier = identifier
        self.kind = kind
        self.time = time
    }
}

/// Why `monitor` refused a region.
public enum RegionRefusal: Error, Sendable, Equatable {
    /// A field out of bounds: the message names it.
    case invalid(String)
    /// The app monitors as many regions as it may (R8).
    case tooMany(limit: Int)
}
