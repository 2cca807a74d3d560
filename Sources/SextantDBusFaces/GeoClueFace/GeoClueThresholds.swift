import SextantCore
import SextantProtocol

/// A client's `DistanceThreshold` and `TimeThreshold`, applied as GeoClue 2.6 applies them:
/// a new location is compared with the last one *signalled* to the client; when it moved
/// less than the distance threshold (metres) or came less than the time threshold
/// (whole seconds of the locations' own timestamps) after it, no `LocationUpdated` is
/// emitted, and the client's current `Location` object takes the new values in place.
/// A threshold of 0 never holds a location back.
struct GeoClueThresholds: Equatable {
    /// Metres.
    var distance: UInt32 = 0
    /// Seconds.
    var time: UInt32 = 0
    /// The last location signalled; kept across `Stop` and `Start`, as GeoClue keeps it.
    private(set) var signalled: LocationFix?

    enum Decision: Equatable {
        /// A new `Location` object and a `LocationUpdated` signal.
        case signal
        /// Below a threshold: the current `Location` object's values change, no signal.
        case updateInPlace
    }

    /// What to do with `fix`, a location the client may have (already reduced when it is
    /// served reduced): a signal is remembered as the new reference.
    mutating func offer(_ fix: LocationFix) -> Decision {
        if let signalled, isBelowDistance(signalled, fix) || isBelowTime(signalled, fix) { return .updateInPlace }
        signalled = fix
        return .signal
    }

    private func isBelowDistance(_ reference: LocationFix, _ fix: LocationFix) -> Bool {
        guard distance > 0 else { return false }
        let leg = GreatCircleLeg(
            from: GeoPoint(latitude: reference.latitude, longitude: reference.longitude),
            to: GeoPoint(latitude: fix.latitude, longitude: fix.longitude))
        return leg.length < Double(distance)
    }

    /// GeoClue compares timestamps in whole seconds since the epoch, in either direction.
    private func isBelowTime(_ reference: LocationFix, _ fix: LocationFix) -> Bool {
        guard time > 0 else { return false }
        let apart = (Self.wholeSeconds(fix.time) - Self.wholeSeconds(reference.time)).magnitude
        return apart < UInt64(time)
    }

    /// Seconds since the epoch, rounded down (a time before 1970 rounds towards the past).
    static func wholeSeconds(_ time: Timestamp) -> Int64 {
        let (quotient, remainder) = time.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
