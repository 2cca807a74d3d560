import SextantCore
import SextantProtocol
import SextantStore

/// The sky (RULES N8): a source's own, or one made up beside its fixes, to the sessions
/// that asked (`satellites.start`, the gpsd face's watchers) while they may have
/// full-accuracy locations (L8, L9, as Android's `GnssStatus` asks for fine location).
final class SatellitesService: PhoneService {
    static var appMethods: [any RPCMethod.Type] { [SubscriptionMethod<SatellitesStart>.self, SubscriptionMethod<SatellitesStop>.self] }

    private unowned let hub: Hub

    private let listeners: Listeners

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        listeners = hub.listeners
    }

    /// A sky is made up beside fixes only while a session listens.
    var wantsFixes: Bool { listeners.hear(.satellites) }

    static var consumedRecords: [RecordKind] { [.sky] }

    /// A sky a source recorded (a trace's `sky`, GnssLogger `Status`, NMEA `GSV`): from
    /// then on that source's fixes get no made-up one.
    func recordSampled(_ record: SampleRecord, at time: Timestamp, from source: SourceName) {
        guard let sky = record.value(as: SkyView.self) else { return }
        hub.gnss.skyRecorded(from: source)
        publish(sky, at: time)
    }

    /// The made-up sky beside a fix of `source`, when one is due.
    func fixSampled(_ truth: LocationFix, from source: SourceName) {
        guard let sky = hub.gnss.synthesizedSky(at: truth.time, from: source) else { return }
        publish(sky, at: truth.time)
    }

    private func publish(_ sky: SkyView, at time: Timestamp) {
        let listeners = hub.sessions.subscribers(of: .satellites)
        guard !listeners.isEmpty else { return }
        // Watchers see the copies that reach sessions (`publish`), as for every
        // location-derived event.
        let event = SatellitesEvent(sky: WireSky(sky: sky, time: time))
        for session in listeners { hub.publish(to: session, event) }
    }
}

/// The satellites in view and used (RULES N8): where the device is, to a few hundred
/// kilometres, so only for a session that may have full-accuracy locations.
package struct SatellitesEvent: AppEventKind {
    package let sky: WireSky
    package static var topic: AppTopic { .satellites }
    package static var isLocationDerived: Bool { true }
    package static var needsFullAccuracy: Bool { true }
    package var outboundKind: OutboundKind { .location }
    package var method: String { Event.satellites }
    package var params: JSONValue { sky.json }
}

extension SatellitesStart: TopicSwitch {
    static var topic: AppTopic { .satellites }
    static var on: Bool { true }
}

extension SatellitesStop: TopicSwitch {
    static var topic: AppTopic { .satellites }
    static var on: Bool { false }
}
