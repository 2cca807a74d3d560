import SextantProtocol

/// One app's `location.start` stream: decides which published fixes it receives and in
/// what form (RULES L10, L11). The caller has already checked that the app may receive
/// locations at all (L1, L8).
public struct LocationStream: Sendable, Equatable {
    /// Metres; 0 means best. At 2000 m or more the stream is served reduced, as iOS
    /// serves `kCLLocationAccuracyReduced`.
    public var desiredAccuracy: Double
    /// Metres a fix must have moved from the last one delivered (L11); 0 delivers every fix.
    /// Fixed for the stream's life (a new `location.start` makes a new stream).
    public let distanceFilter: Double
    /// Where the last fix delivered was, kept only while a distance filter needs it (L11):
    /// a session's stream is read and written on every delivery, so it stays small (a whole
    /// fix was three cache lines written per delivery to a thousand sessions).
    private var lastPlace: Place?
    private var lastCell: LocationFudger.Cell?

    private struct Place: Equatable {
        var latitude: Double
        var longitude: Double

        init(_ fix: LocationFix) { (latitude, longitude) = (fix.latitude, fix.longitude) }

        func distance(to fix: LocationFix) -> Double {
            Geo.distance(lat1: latitude, lon1: longitude, lat2: fix.latitude, lon2: fix.longitude)
        }
    }

    public init(desiredAccuracy: Double = 0, distanceFilter: Double = 0) {
        self.desiredAccuracy = desiredAccuracy
        self.distanceFilter = distanceFilter
    }

    /// The fix to deliver for `fix`, or nil when the stream skips it. `authorized` is the
    /// app's accuracy; `fudger` its grid.
    public mutating func offer(_ fix: LocationFix, authorized: LocationAccuracy, fudger: LocationFudger) -> (LocationFix, LocationAccuracy)? {
        let accuracy = served(authorized)
        var out = fix
        if accuracy == .reduced {
            let (coarse, cell) = fudger.coarsen(fix)
            // L10: a new location only when the cell changes (plus the first one).
            if let lastCell, lastCell == cell { return nil }
            out = coarse
            lastCell = cell
        } else {
            lastCell = nil
        }
        guard distanceFilter > 0 else { return (out, accuracy) }
        if let last = lastPlace, last.distance(to: out) < distanceFilter { return nil }
        lastPlace = Place(out)
        return (out, accuracy)
    }

    /// Whether every fix offered at `authorized` is delivered as it is (full accuracy, no
    /// distance filter): a run of fixes can then be handed over at once (``delivered(_:)``).
    public func deliversEvery(_ authorized: LocationAccuracy) -> Bool {
        served(authorized) == .full && distanceFilter <= 0
    }

    /// A run of fixes ending with `last` was handed over as it is: what `offer` would have
    /// left after offering each of them (``deliversEvery(_:)``).
    public mutating func delivered(_ last: LocationFix) {
        if distanceFilter > 0 { lastPlace = Place(last) }
        lastCell = nil
    }

    /// The accuracy this stream serves: reduced when the app has reduced, or asked for no better.
    public func served(_ authorized: LocationAccuracy) -> LocationAccuracy {
        authorized == .reduced || desiredAccuracy >= LocationFudger.minimumAccuracy ? .reduced : .full
    }
}
