import SextantProtocol

/// What a request delivers: one fix (Android's `onLocationChanged(Location)`), several
/// held fixes at once (`onLocationChanged(List<Location>)`, AN30), or its end (AN31).
public enum FusedDelivery: Sendable, Equatable {
    case location(LocationFix)
    case batch([LocationFix])
    case ended(FusedRegistration.End)
}

/// One app's request on the fused provider (docs/platforms.md AN25–AN32): it filters the
/// provider's fixes by the request as served to the app in its current state, holds them
/// for a batch when the request allows batching, and ends after its duration or its
/// number of updates. Pure: times are inputs.
public struct FusedRegistration: Sendable, Equatable {
    public enum End: String, Sendable, Equatable {
        /// `durationMillis` ran out.
        case duration
        /// `maxUpdates` deliveries were made.
        case maxUpdates
    }

    /// A batch holds at most this many fixes and is delivered when full, so that a long
    /// delay over a fast provider cannot grow without bound (Sextant's cap; a phone's GNSS
    /// batch buffer is finite too).
    public static let batchCapacity = 1000

    public let request: FusedLocationRequest
    public let grant: AndroidLocationGrant
    /// When the request ends (AN31), if it has a duration.
    public let expiry: Timestamp?
    public private(set) var lastDelivered: LocationFix?
    public private(set) var deliveries = 0
    public private(set) var held: [LocationFix] = []
    public private(set) var ended: End?

    public init(request: FusedLocationRequest, grant: AndroidLocationGrant, start: Timestamp) {
        self.request = request
        self.grant = grant
        expiry = request.durationMillis.map { AndroidCoarseFudger.adding($0, to: start) }
    }

    /// The request as served in `state` (AN25, AN28).
    public func served(in state: AndroidAppState) -> FusedLocationRequest {
        FusedRequestRules.served(request, precise: grant.precise, state: state)
    }

    /// AN30: batching is on when the delay is at least twice the served interval
    /// (`LocationRequest.Builder.setMaxUpdateDelayMillis`: "equal to or greater than twice
    /// the interval").
    public func batches(in state: AndroidAppState) -> Bool {
        let served = served(in: state)
        return served.maxUpdateDelayMillis > 0 && served.maxUpdateDelayMillis / 2 >= served.intervalMillis
    }

    /// A fix the provider produced, already coarsened when the grant is approximate; what
    /// the app receives at `now` in `state`.
    public mutating func offer(_ fix: LocationFix, now: Timestamp, state: AndroidAppState) -> [FusedDelivery] {
        var out = expire(now: now)
        guard ended == nil, grant.mayReceive(in: state) else { return out }
        let served = served(in: state)
        guard FusedRequestRules.passes(fix, after: held.last ?? lastDelivered, served: served) else {
            return out + flushIfDue(now: now, state: state)
        }
        guard batches(in: state) else {
            // Fixes held while batching was on (another state) go first, as one batch.
            out += flushIfDue(now: now, state: state)
            guard ended == nil else { return out }
            out.append(deliver(.location(fix), last: fix))
            return out + endIfDone()
        }
        held.append(fix)
        return out + flushIfDue(now: now, state: state)
    }

    /// Time passing with no fix: a batch whose oldest fix is `maxUpdateDelayMillis` old is
    /// delivered; a request past its duration ends.
    public mutating func advance(to now: Timestamp, state: AndroidAppState) -> [FusedDelivery] {
        let out = expire(now: now)
        guard ended == nil else { return out }
        return out + flushIfDue(now: now, state: state)
    }

    /// When `advance` next has something to do: the held batch's due time or the expiry.
    public func nextDeadline(state: AndroidAppState) -> Timestamp? {
        guard ended == nil else { return nil }
        let due = held.first.map { AndroidCoarseFudger.adding(served(in: state).maxUpdateDelayMillis, to: $0.time) }
        switch (due, expiry) {
        case let (d?, e?): return min(d, e)
        case let (d, e): return d ?? e
        }
    }

    private mutating func flushIfDue(now: Timestamp, state: AndroidAppState) -> [FusedDelivery] {
        guard let oldest = held.first else { return [] }
        let due = AndroidCoarseFudger.adding(served(in: state).maxUpdateDelayMillis, to: oldest.time)
        guard now >= due || held.count >= Self.batchCapacity || !batches(in: state) else { return [] }
        let batch = held
        held.removeAll()
        guard grant.mayReceive(in: state) else { return [] }
        return [deliver(batch.count == 1 ? .location(batch[0]) : .batch(batch), last: batch[batch.count - 1])] + endIfDone()
    }

    private mutating func deliver(_ delivery: FusedDelivery, last: LocationFix) -> FusedDelivery {
        lastDelivered = last
        deliveries += 1
        return delivery
    }

    /// AN31: after `maxUpdates` deliveries (a batch counts once) the request ends.
    private mutating func endIfDone() -> [FusedDelivery] {
        guard ended == nil, let limit = request.maxUpdates, deliveries >= limit else { return [] }
        ended = .maxUpdates
        held.removeAll()
        return [.ended(.maxUpdates)]
    }

    /// AN31: at or after its expiry the request ends; fixes it held are dropped.
    private mutating func expire(now: Timestamp) -> [FusedDelivery] {
        guard ended == nil, let expiry, now >= expiry else { return [] }
        ended = .duration
        held.removeAll()
        return [.ended(.duration)]
    }
}
