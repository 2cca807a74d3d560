import SextantProtocol

/// The device's fused location provider under the Android profile (docs/platforms.md
/// AN20–AN33): the requests of every app, the provider's own schedule, the device's one
/// coarse fudger and its last fix. Pure: fixes, times and each app's state are inputs,
/// deliveries are the output.
///
/// AN29: the provider runs at the fastest served interval of its non-passive requests and
/// produces a fix when that interval (less 100 ms of scheduling slack) has passed since its
/// last; every request hears only the fixes it produces, filtered by its own request. A
/// lone app in the background is thus served once every 30 min (AN28), while one that
/// shares the provider with a foreground app hears fixes as often as its own minimum update
/// interval allows, as on a phone.
public struct AndroidFusedProvider<ID: Hashable & Sendable>: Sendable {
    public private(set) var registrations: [ID: FusedRegistration] = [:]
    /// The last fix the provider produced (precise), for the last-known location (AN33).
    public private(set) var lastFix: LocationFix?
    /// The coarse last location approximate apps see (AN37): the fudger's fix of a
    /// produced one, moved on at most once every 10 min.
    public private(set) var lastCoarse: LocationFix?
    private var lastProduced: Timestamp?
    private var fudger: AndroidCoarseFudger?
    private let fudgerSeed: UInt64
    private let coarseAccuracy: Double

    public init(fudgerSeed: UInt64, coarseAccuracy: Double = AndroidCoarseFudger.defaultAccuracy) {
        self.fudgerSeed = fudgerSeed
        self.coarseAccuracy = coarseAccuracy
    }

    public var isEmpty: Bool { registrations.isEmpty }

    /// Adds or replaces `id`'s request, starting at `now`.
    public mutating func register(_ id: ID, request: FusedLocationRequest, grant: AndroidLocationGrant, now: Timestamp) {
        registrations[id] = FusedRegistration(request: request, grant: grant, start: now)
    }

    public mutating func unregister(_ id: ID) { registrations[id] = nil }

    /// AN29: the interval the provider runs at now, nil when no request makes it run.
    public func providerInterval(state: (ID) -> AndroidAppState) -> Int64? {
        var fastest: Int64?
        for (id, registration) in registrations where registration.ended == nil && registration.request.priority != .passive {
            let interval = registration.served(in: state(id)).intervalMillis
            fastest = min(fastest ?? interval, interval)
        }
        return fastest
    }

    /// A fix from the device's receiver at `now`: what each request receives. Ended
    /// requests are dropped after their `.ended` delivery.
    public mutating func receive(_ fine: LocationFix, now: Timestamp, state: (ID) -> AndroidAppState) -> [(ID, FusedDelivery)] {
        if let lastProduced, fine.time < lastProduced { restart(at: now) }
        guard produces(at: fine.time, interval: providerInterval(state: state)) else { return advance(to: now, state: state) }
        lastProduced = fine.time
        lastFix = fine
        var coarse: LocationFix?
        lastCoarse = FusedRequestRules.nextCoarse(lastCoarse, coarsened(fine, now: now, cache: &coarse))
        var out: [(ID, FusedDelivery)] = []
        for id in Array(registrations.keys) {
            guard var registration = registrations[id] else { continue }
            let permitted = registration.grant.precise ? fine : coarsened(fine, now: now, cache: &coarse)
            for delivery in registration.offer(permitted, now: now, state: state(id)) { out.append((id, delivery)) }
            registrations[id] = registration.ended == nil ? registration : nil
        }
        return out
    }

    /// Time passing: batches that fell due and requests that expired.
    public mutating func advance(to now: Timestamp, state: (ID) -> AndroidAppState) -> [(ID, FusedDelivery)] {
        var out: [(ID, FusedDelivery)] = []
        for id in Array(registrations.keys) {
            guard var registration = registrations[id], registration.nextDeadline(state: state(id)).map({ now >= $0 }) == true else { continue }
            for delivery in registration.advance(to: now, state: state(id)) { out.append((id, delivery)) }
            registrations[id] = registration.ended == nil ? registration : nil
        }
        return out
    }

    /// The earliest time `advance` has something to do.
    public func nextDeadline(state: (ID) -> AndroidAppState) -> Timestamp? {
        registrations.compactMap { $0.value.nextDeadline(state: state($0.key)) }.min()
    }

    /// AN33, AN37: `getLastLocation` for an app with `grant` in `state` at `now`: the last
    /// fix, or for an approximate grant the coarse last location.
    public func lastLocation(grant: AndroidLocationGrant, state: AndroidAppState, now: Timestamp) -> LocationFix? {
        FusedRequestRules.lastLocation(grant.precise ? lastFix : lastCoarse, now: now, grant: grant, state: state)
    }

    /// AN35: a fix the receiver gave while getCurrentLocation calls wait: the provider ran
    /// for them, so the last location moves on (AN37's rule for the coarse one); the fix
    /// each waiting app gets is `fine`, or its fudged fix for an approximate grant.
    public mutating func produceForCurrent(_ fine: LocationFix, now: Timestamp) -> (fine: LocationFix, coarse: LocationFix) {
        var cache: LocationFix?
        let coarse = coarsened(fine, now: now, cache: &cache)
        lastFix = fine
        lastCoarse = FusedRequestRules.nextCoarse(lastCoarse, coarse)
        return (fine, coarse)
    }

    /// AN35: what getCurrentLocation answers at once: the last location the app may see
    /// when it is at most 10 s old; nil when a fresh fix must be waited for.
    public func currentLocation(grant: AndroidLocationGrant, state: AndroidAppState, now: Timestamp) -> LocationFix? {
        guard let last = lastLocation(grant: grant, state: state, now: now), FusedRequestRules.isCurrent(last, now: now) else { return nil }
        return last
    }

    /// A fix older than the provider's last: the trace went back (a new replay, a loop, a
    /// seek), which a phone's clock never does. The provider and every request begin again
    /// at `now`, as if just made, rather than hold every fix until the old time comes round.
    private mutating func restart(at now: Timestamp) {
        lastProduced = nil
        for (id, registration) in registrations {
            registrations[id] = FusedRegistration(request: registration.request, grant: registration.grant, start: now)
        }
    }

    private func produces(at time: Timestamp, interval: Int64?) -> Bool {
        guard let interval else { return false }
        guard let lastProduced else { return true }
        let elapsed = (time.nanoseconds &- lastProduced.nanoseconds) / 1_000_000
        return elapsed >= interval - FusedRequestRules.providerSchedulingJitterMillis
    }

    /// The one coarse fix of `fine` every approximate request hears (AOSP caches the last
    /// coarsening so that the offsets step once per fix, not once per app).
    private mutating func coarsened(_ fine: LocationFix, now: Timestamp, cache: inout LocationFix?) -> LocationFix {
        if let cache { return cache }
        var fudger = self.fudger ?? AndroidCoarseFudger(accuracy: coarseAccuracy, seed: fudgerSeed, now: now)
        let coarse = fudger.coarsen(fine, now: now)
        self.fudger = fudger
        cache = coarse
        return coarse
    }
}
