import SextantCore
import SextantProtocol
import SextantStore

/// Magnetometer and compass readings in, with the accelerometer's gravity; `heading` and
/// `headingCalibration` events out (RULES H1–H9). The engine decides the heading; the
/// service turns it to each app's interface, adds the declination at the place the app may
/// know, and applies the rules of who may have what.
final class HeadingService: StreamingService {
    typealias StopRequest = HeadingStop
    static var topic: AppTopic { .heading }
    /// The accelerometer first: H1, its latest reading is the attitude the next field is judged in.
    static var consumedKinds: [SensorKind.ID] { [SensorKind.accelerometer.id, SensorKind.magnetometer.id, SensorKind.compass.id] }

    unowned let hub: Hub
    /// The heading engine and the model's field at the latest fix.
    let heading = HeadingState()
    var subscribers = Subscribers<HeadingSubscription>()

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    /// `heading.start` (needing no location authorization, H8): a filter set afresh on
    /// each start (H7).
    static func subscription(for request: HeadingStart, of session: AppSession, in hub: Hub) -> HeadingSubscription {
        HeadingSubscription(filter: request.filter ?? HeadingStream.defaultFilter)
    }

    var statusMembers: [String: JSONValue] { ["heading": statusJSON] }

    /// The compass held by hand is let go of: `status` says null until the next reading.
    func releasedByHand(_ kind: SensorKind.ID) {
        if ManualSensors.sharingTopic(with: kind).contains(SensorKind.compass.id), heading.source == .manual { heading.forget() }
    }

    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        if let gravity = Acceleration(reading) {
            heading.gravity(gravity)
            return
        }
        // H9: a source's compass readings silence its magnetometer's for a while.
        guard heading.heard(reading.kind, from: source, at: time) else { return }
        let decision: HeadingDecision?
        if let field = MagneticField(reading) {
            decision = heading.judge(field, at: time, lastFix: hub.services.fixes.lastFix)
        } else if let compass = CompassReading(reading) {
            decision = heading.judge(compass, at: time, lastFix: hub.services.fixes.lastFix)
        } else {
            decision = nil
        }
        if let decision { publishHeading(decision) }
    }

    private func publishHeading(_ decision: HeadingDecision) {
        let decided = decision.heading
        hub.observed(HeadingDecided(heading: decided))
        // Apps differ only by their interface (H2) and the true heading they may have (H8):
        // each distinct event is made and encoded once, and its bytes go to all of them.
        var payloads = HeadingPayloads(heading: decided)
        let calibration = decision.calibrationChanged.map { SharedEvent(HeadingCalibrationEvent(needed: $0, time: decided.time)) }
        let fullAccuracyTrue = fullAccuracyTrueHeading(of: decided)
        var heard = false
        for (session, subscription) in subscribers.entries {
            heard = true
            // H8: the magnetic heading follows L8 (foreground, or background with Always).
            guard mayHaveHeading(session, subscription) else { continue }
            if let calibration { hub.publish(to: session, calibration) }
            let interface = session.interface.orientation ?? .portrait
            let magnetic = HeadingMath.turned(decided.magnetic, to: interface)
            guard subscription.stream.admits(magnetic, accuracy: decided.accuracy) else { continue }
            let trueHeading = trueHeading(of: decided, for: session, atFullAccuracy: fullAccuracyTrue)
            hub.publish(to: session, payloads.event(interface: interface, magnetic: magnetic, trueHeading: trueHeading))
        }
        guard !heard else { return }
        if let needed = decision.calibrationChanged {
            hub.broadcastToWatchers(Event.headingCalibration, HeadingCalibrationEvent(needed: needed, time: decided.time).params)
        }
        // The control side is trusted with where the device is: it sees `true` too (H6), and
        // a heading only when it changed, not each of a held compass's 50 readings a second.
        let watched = decided.json(magnetic: decided.magnetic, trueHeading: fullAccuracyTrue)
        guard heading.watchedChanged(watched) else { return }
        hub.broadcastToWatchers(Event.heading, watched, kind: .sensor)
    }

    /// `heading` in `status`: the latest heading with its true heading as a watcher sees it.
    var statusJSON: JSONValue {
        heading.statusJSON(trueHeading: heading.engine.latest.flatMap(fullAccuracyTrueHeading(of:)))
    }

    /// H8 (L8): an app in the background hears the compass only with Always. Asked of
    /// the engine again only when it changed (as `hub.decidedAccuracy(of:)`): every reading's
    /// fan-out reads it for every app.
    private func mayHaveHeading(_ session: AppSession, _ subscription: HeadingSubscription) -> Bool {
        if subscription.decidedAt != hub.authorizationGeneration {
            subscription.mayHaveHeading =
                hub.appState(of: session) == .foreground || hub.authorization.authorization(of: session.id).status == .authorizedAlways
            subscription.decidedAt = hub.authorizationGeneration
        }
        return subscription.mayHaveHeading
    }

    /// H6, H8: the true heading in the device's natural orientation that this session may
    /// have: none without location authorization now (L1, L8, L9); at full accuracy the
    /// compass's own or magnetic + the declination at the latest fix; at reduced accuracy
    /// magnetic + the declination at the fix the app is served (its grid cell, L10).
    func trueHeading(of decided: Heading, for session: AppSession) -> Double? {
        trueHeading(of: decided, for: session, atFullAccuracy: fullAccuracyTrueHeading(of: decided))
    }

    /// The same, given what an app at full accuracy gets (the same for every one of them).
    private func trueHeading(of decided: Heading, for session: AppSession, atFullAccuracy: Double?) -> Double? {
        guard let granted = hub.decidedAccuracy(of: session) else { return nil }
        if granted == .full { return atFullAccuracy }
        guard let fix = hub.services.fixes.lastFix, let fudger = hub.committedFudger(for: session.app) else { return nil }
        let served = fudger.coarsen(fix).fix
        let elements = subscribers[session]?.model.elements(
            latitude: served.latitude, longitude: served.longitude, height: served.altitude ?? 0, at: decided.time)
        return elements.map { HeadingMath.normalized(decided.magnetic + $0.declination) }
    }

    /// H6: the true heading of an app at full accuracy: the compass's own, or magnetic +
    /// the declination at the latest fix; without a fix, only the compass's own.
    func fullAccuracyTrueHeading(of decided: Heading) -> Double? {
        if let reported = decided.reportedTrue { return reported }
        guard let fix = hub.services.fixes.lastFix else { return nil }
        let declination = heading.fullAccuracyModel(at: fix, time: decided.time).declination
        return HeadingMath.normalized(decided.magnetic + declination)
    }
}

/// One reading's `heading` events, one a distinct payload: apps differ only by the
/// interface the heading is turned to (H2) and the true heading they may have (H8).
struct HeadingPayloads {
    private struct Key: Hashable {
        let interface: InterfaceOrientation
        /// In the device's natural orientation; nil: none (``HeadingEvent``).
        let trueHeading: Double?
    }

    let heading: Heading
    private var events = SharedEvents<Key>()

    init(heading: Heading) { self.heading = heading }

    /// The event for an app in `interface` (`magnetic` turned to it) that may have `trueHeading`.
    mutating func event(interface: InterfaceOrientation, magnetic: Double, trueHeading: Double?) -> SharedEvent {
        let heading = heading
        return events.event(for: Key(interface: interface, trueHeading: trueHeading)) {
            guard let trueHeading else { return HeadingEvent(heading: heading, magnetic: magnetic) }
            return TrueHeadingEvent(heading: heading, magnetic: magnetic, trueHeading: HeadingMath.turned(trueHeading, to: interface))
        }
    }
}

/// The heading engine and the model's field at the latest fix (H6), owned by the hub and
/// changed only through the operations below.
final class HeadingState {
    private(set) var engine = HeadingEngine()
    private var model = MagneticModelCache()
    /// The source of the latest magnetometer or compass reading heard, for `status`.
    private(set) var source: SourceName?
    /// H9: the time of each source's latest compass reading.
    private var lastCompass: [SourceName: Timestamp] = [:]
    /// The latest `heading` watchers saw, without its time: the next is sent only if it differs.
    private var lastWatched: JSONValue?

    /// Whether a reading of `kind` from `source` at `time` may decide the heading: H9, a
    /// source that gives compass readings is heard through them, not its magnetometer's,
    /// while its latest compass reading is less than ``compassPrecedence`` older.
    func heard(_ kind: SensorKind.ID, from source: SourceName, at time: Timestamp) -> Bool {
        if kind == SensorKind.compass.id {
            lastCompass[source] = time
        } else if kind == SensorKind.magnetometer.id, let compass = lastCompass[source] {
            let since = time.nanoseconds - compass.nanoseconds
            if since >= 0, since < Self.compassPrecedence { return false }
        }
        if kind == SensorKind.magnetometer.id || kind == SensorKind.compass.id { self.source = source }
        return true
    }

    /// H9: how long a source's compass reading keeps its magnetometer from the heading.
    static let compassPrecedence: Int64 = 2_000_000_000

    /// Whether `watched` differs from the last heading watchers saw, time aside; if so it is
    /// the new reference.
    func watchedChanged(_ watched: JSONValue) -> Bool {
        var members = watched.objectValue ?? [:]
        members["time"] = nil
        guard JSONValue.object(members) != lastWatched else { return false }
        lastWatched = .object(members)
        return true
    }

    /// Nothing feeds the heading any more (its hold released): `status` says null until the
    /// next reading, and watchers see that one whatever it is.
    func forget() {
        engine.forgetLatest()
        source = nil
        lastWatched = nil
    }

    /// `heading` in `status`: the latest heading in the device's natural orientation with
    /// the true heading at the latest fix, its source and the calibration state; null before
    /// the first and after its hold is released.
    func statusJSON(trueHeading: Double?) -> JSONValue {
        guard let latest = engine.latest else { return .null }
        var members = latest.json(magnetic: latest.magnetic, trueHeading: trueHeading).objectValue ?? [:]
        members["source"] = source.map { .string($0.rawValue) } ?? .null
        members["calibrationNeeded"] = .bool(engine.needsCalibration)
        return .object(members)
    }

    /// H1: the attitude the next field is judged in.
    func gravity(_ reading: Acceleration) { engine.gravity(reading) }

    /// A magnetometer reading judged against the model's field at the latest fix (H3, H4).
    func judge(_ field: MagneticField, at time: Timestamp, lastFix: LocationFix?) -> HeadingDecision? {
        expect(at: lastFix, time: time)
        return engine.judge(field, at: time)
    }

    /// A compass reading, taken as it is (H1).
    func judge(_ compass: CompassReading, at time: Timestamp, lastFix: LocationFix?) -> HeadingDecision? {
        expect(at: lastFix, time: time)
        return engine.judge(compass, at: time)
    }

    private func expect(at fix: LocationFix?, time: Timestamp) {
        engine.expected = fix.map { fullAccuracyModel(at: $0, time: time) }
    }

    func fullAccuracyModel(at fix: LocationFix, time: Timestamp) -> GeomagneticElements {
        model.elements(latitude: fix.latitude, longitude: fix.longitude, height: fix.altitude ?? 0, at: time)
    }
}

/// A session's `heading.start`: its filter (H7), the model at the place it is served,
/// when that is not the latest fix itself (reduced accuracy), and whether it may hear the
/// compass (H8, L8) as of the authorization engine's generation `decidedAt`.
final class HeadingSubscription {
    var stream: HeadingStream
    var model = MagneticModelCache()
    var mayHaveHeading = false
    var decidedAt: UInt64 = 0

    init(filter: Double) { stream = HeadingStream(filter: filter) }
}

/// Observed by the faces (``Face/observe(_:)``): each heading the engine decides (RULES
/// H1–H5), whatever its source, in the device's natural orientation, before any app's rules.
package struct HeadingDecided: DeviceChange {
    package let heading: Heading
}

/// A heading without `true`: the app may not know where it is now, or nobody does (H8).
package struct HeadingEvent: AppEventKind {
    package let heading: Heading
    /// Turned to the app's interface (H2).
    let magnetic: Double
    package static var topic: AppTopic { .heading }
    package var outboundKind: OutboundKind { .sensor }
    package var method: String { Event.heading }
    package var params: JSONValue { heading.json(magnetic: magnetic, trueHeading: nil) }
}

/// A heading with `true`: it says something of where the device is, so it leaves only while
/// the app may have locations, and a revoke drops it from the queue (L9).
package struct TrueHeadingEvent: AppEventKind {
    package let heading: Heading
    let magnetic: Double
    let trueHeading: Double
    package static var topic: AppTopic { .heading }
    package static var isLocationDerived: Bool { true }
    package var outboundKind: OutboundKind { .sensor }
    package var method: String { Event.heading }
    package var params: JSONValue { heading.json(magnetic: magnetic, trueHeading: trueHeading) }
}

/// H5: iOS `shouldDisplayHeadingCalibration`, on each change.
struct HeadingCalibrationEvent: AppEventKind {
    let needed: Bool
    let time: Timestamp
    static var topic: AppTopic { .heading }
    var outboundKind: OutboundKind { .essential }
    var method: String { Event.headingCalibration }
    var params: JSONValue { SextantProtocol.HeadingCalibrationEvent(needed: needed, time: time).json }
}

extension Heading {
    /// The `heading` event's params (``WireHeading``): degrees and µT to 0.01.
    func json(magnetic: Double, trueHeading: Double?) -> JSONValue {
        WireHeading(
            magnetic: Self.hundredths(magnetic), trueHeading: trueHeading.map(Self.hundredths), accuracy: accuracy,
            field: field.map { .init(x: Self.hundredths($0.x), y: Self.hundredths($0.y), z: Self.hundredths($0.z)) },
            time: time
        ).json
    }

    package static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
