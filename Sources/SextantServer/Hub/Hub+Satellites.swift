import SextantCore
import SextantProtocol

/// The sky (RULES N8): a source's own, or one made up beside its fixes, to the sessions
/// that asked (`satellites.start`, the gpsd face's watchers) while they may have
/// full-accuracy locations (L8, L9, as Android's `GnssStatus` asks for fine location).
extension Hub {
    /// A sky a source recorded (a trace's `sky`, GnssLogger `Status`, NMEA `GSV`).
    func recordedSky(_ sky: SkyView, at time: Timestamp, from source: SourceName) {
        gnss.skyRecorded(from: source)
        publishSky(sky, at: time)
    }

    /// The made-up sky beside a fix of `source`, when one is due and someone listens.
    func synthesizeSky(at time: Timestamp, from source: SourceName) {
        guard sessions.ordered.contains(where: { $0.hears(.satellites) }) else { return }
        guard let sky = gnss.synthesizedSky(at: time, from: source) else { return }
        publishSky(sky, at: time)
    }

    private func publishSky(_ sky: SkyView, at time: Timestamp) {
        // Watchers see the copies that reach sessions (`publish`), as for every
        // location-derived event.
        let event = SatellitesEvent(sky: WireSky(sky: sky, time: time))
        for session in sessions.ordered where session.hears(.satellites) { publish(to: session, event) }
    }
}
