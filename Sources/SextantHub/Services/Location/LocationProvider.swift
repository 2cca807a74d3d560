import SextantProtocol

/// Who decides every location a session is handed — app.sock's `location.start`,
/// `location.once` and `location.lastKnown`, and the faces' streams (gpsd's `?WATCH`,
/// GeoClue's `Start`): the iOS stream and grid (RULES L8–L11, ``LocationService``, the
/// default) or the platform's own provider (``PlatformLocationProvider``: Android's fused
/// provider, docs/platforms.md AN20–AN37). ``Services/locationProvider`` is the one place
/// that says which decides: no method or face asks which platform it runs on.
///
/// Called once per request, never per fix: the fixes reach the iOS streams through the
/// fan-out (``LocationDelivery``), which reads each session's stream concretely.
protocol LocationProvider: AnyObject {
    /// app.sock's `location.start`, its access already checked (L7 before L1/L8). Returns
    /// whether a loss of the GPS source in force is told to the session now (once per
    /// stream: a restart of the same iOS stream has heard it already).
    func startStream(_ session: AppSession, _ request: LocationStartMethod) throws(RPCError) -> Bool
    /// A face's stream: the fixes the rules give a foreground app that asks for every fix
    /// at `desiredAccuracy` metres (0: the best).
    func startFaceStream(_ session: AppSession, desiredAccuracy: Double)
    /// A face's stream just started: the latest fix, through the same rules as any other,
    /// if this provider hands one at a start.
    func handLatestFix(to session: AppSession)
    /// Whether the session's stream, app's or face's, runs (`apps.list`'s `locationStreaming`,
    /// a loss told to streaming sessions).
    func streams(_ session: AppSession) -> Bool
    /// The session's stream, app's or face's, ends.
    func stop(_ session: AppSession)
    /// `location.once`: the answer now, or nil when the call `id` is answered on `peer`
    /// once a fix comes (or its time is up).
    func current(_ session: AppSession, id: JSONValue, peer: any RPCPeer) throws(RPCError) -> JSONValue?
}

/// The platform's own location provider (Android's fused provider, docs/platforms.md
/// AN20–AN37): a service of that platform's only, which, when the phone has it, decides
/// every location a session is handed instead of the iOS stream.
protocol PlatformLocationProvider: PhoneService, LocationProvider {
    /// app.sock's `location.start` with the platform's own request.
    func start(_ session: AppSession, _ params: FusedLocationParams) throws(RPCError)
}

extension PlatformLocationProvider {
    /// The platform's request replaces the session's; a loss in force is told at every start.
    func startStream(_ session: AppSession, _ request: LocationStartMethod) throws(RPCError) -> Bool {
        try start(session, request.fused)
        return true
    }

    /// None: its requests hear the next fix it produces, as Android's
    /// `requestLocationUpdates` (AN35).
    func handLatestFix(to session: AppSession) {}
}
