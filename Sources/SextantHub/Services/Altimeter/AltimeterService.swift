import SextantCore
import SextantProtocol
import SextantStore

/// The altimeter (RULES B1–B3): barometer readings, else the fixes' altitude, into
/// `altitude` events about once a second to the sessions that asked (`altimeter.start`).
/// While nobody asked it reads neither: no fix reaches it (``wantsFixes``) and a barometer
/// reading is dropped at the first test.
final class AltimeterService: StreamingService {
    typealias StartRequest = AltimeterStart
    typealias StopRequest = AltimeterStop
    static var topic: AppTopic { .altimeter }
    static var consumedKinds: [SensorKind.ID] { [SensorKind.pressure.id] }

    unowned let hub: Hub
    private var engine: AltimeterEngine
    var subscribers = Subscribers<AltimeterSubscription>()
    /// The latest reading reported, for `status`; nil before any and once nobody listens.
    private var latest: AltimeterReading?
    /// The latest barometer reading heard, listened to or not, for `status`'s `pressure`;
    /// nil before any and after a pressure held by hand is let go of.
    private var latestPressure: (hPa: Double, time: Timestamp)?

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        engine = AltimeterEngine(seaLevelPressure: hub.configuration.services.seaLevelPressure)
    }

    var wantsFixes: Bool { !subscribers.isEmpty }

    func stopped(_ session: AppSession) {
        if subscribers.isEmpty { forget() }
    }

    func sessionClosed(_ session: AppSession) {
        subscribers.remove(session)
        if subscribers.isEmpty { forget() }
    }

    /// Nobody listens: the next listener starts from a fresh engine (its first reading at once).
    private func forget() {
        engine = AltimeterEngine(seaLevelPressure: engine.seaLevelPressure)
        latest = nil
    }

    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        guard let hPa = reading.hectopascals else { return }
        latestPressure = (hPa, time)
        guard !subscribers.isEmpty else { return }
        if let update = engine.barometer(hectopascals: hPa, at: time) { publish(update) }
    }

    func fixSampled(_ truth: LocationFix, from source: SourceName) {
        if let update = engine.fix(altitude: truth.altitude, verticalAccuracy: truth.verticalAccuracy, at: truth.time) { publish(update) }
    }

    /// B3: relative altitude and pressure to every foreground subscriber, each counted from
    /// its own first event; the absolute altitude only to those that may have locations.
    private func publish(_ update: AltimeterReading) {
        latest = update
        for (session, subscription) in subscribers.entries {
            guard hub.mayHearMotion(session, .altimeter) else { continue }  // B3, AN40, I15
            let baseline = subscription.baseline ?? update.altitude
            subscription.baseline = baseline
            let located = hub.mayReceiveLocations(session)
            let wire = WireAltitude(
                relativeAltitude: update.altitude - baseline, pressure: update.pressure, altitude: located ? update.absoluteAltitude : nil,
                accuracy: located ? update.accuracy : nil, derived: update.derived, time: update.time)
            hub.publish(to: session, AltitudeEvent(altitude: wire))
        }
    }

    /// A pressure held by hand was let go of: `status` shows the next reading, none until then.
    func releasedByHand(_ kind: SensorKind.ID) {
        if kind == SensorKind.pressure.id { latestPressure = nil }
    }

    /// `pressure` {`hPa`, `time`}: the latest barometer reading, or null.
    private var pressureJSON: JSONValue {
        guard let latestPressure else { return .null }
        return ["hPa": .double(latestPressure.hPa), "time": .string(latestPressure.time.rfc3339)]
    }

    /// `altimeter` in `status`: the latest reading while someone listens, else null; and
    /// `pressure`: the latest barometer reading whether or not anyone listens.
    var statusMembers: [String: JSONValue] {
        guard let latest else { return ["altimeter": .null, "pressure": pressureJSON] }
        return [
            "pressure": pressureJSON,
            "altimeter": WireAltitude(
                relativeAltitude: 0, pressure: latest.pressure, altitude: latest.absoluteAltitude, accuracy: latest.accuracy,
                derived: latest.derived, time: latest.time
            ).json
        ]
    }
}

/// A session's `altimeter.start`: the altitude its relative altitudes count from (B1).
final class AltimeterSubscription: FreshSubscription {
    var baseline: Double?
}

/// B1: relative altitude since the stream's first event and the pressure, as CMAltitudeData.
struct AltitudeEvent: AppEventKind {
    let altitude: WireAltitude
    static var topic: AppTopic { .altimeter }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.altitude }
    var params: JSONValue { altitude.json }
}
