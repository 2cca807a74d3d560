import SextantCore

/// What the faces may ask of the location service (gpsd's `?WATCH`, GeoClue's `Start`):
/// the host API's location part, kept beside the service so that the hub's own files name
/// no service. Whichever provider decides (``Services/locationProvider``) serves them.
extension Hub {
    /// The session streams every fix the rules let it have, at `desiredAccuracy` metres (0:
    /// the best): the platform's location provider's rules when the phone has one (AN35).
    package func startLocationStream(_ session: AppSession, desiredAccuracy: Double = 0) {
        services.fixes.settle(session)  // the fixes decided before its start are not its
        services.locationProvider.startFaceStream(session, desiredAccuracy: desiredAccuracy)
    }

    /// The session streams no fix any more.
    package func stopLocationStream(_ session: AppSession) { services.locationProvider.stop(session) }

    /// The latest fix, through the same rules as any other, to a session that just started
    /// streaming; none when the source is lost. A platform provider hands none: its
    /// requests hear the next fix it produces, as Android's `requestLocationUpdates` (AN35).
    package func deliverCurrentFix(to session: AppSession) { services.locationProvider.handLatestFix(to: session) }

    /// A client started streaming: a replay waiting for one may go on (T1).
    package func clientWantsLocations() { replay.locationRequested() }

    /// The source the device's fixes come from: the last fix's, else the live one of
    /// gpsd and the replay, else the manual source.
    package var fixSource: SourceName {
        services.fixes.lastFixSource ?? [.gpsd, .replay].first { sourceStates[$0].map { $0 != .off && $0 != .idle } ?? false } ?? .manual
    }
}
