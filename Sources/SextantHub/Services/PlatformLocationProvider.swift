import SextantProtocol

/// The platform's own location provider (Android's fused provider, docs/platforms.md
/// AN20–AN37). When the phone has one, every location a session is handed is decided by
/// it — app.sock's `location.start`, `location.once` and `location.lastKnown`, and the
/// faces' streams (gpsd's `?WATCH`, GeoClue's `Start`) — not by the iOS stream and grid
/// (RULES L8–L11). ``Services/locationProvider`` is the one place that says which decides:
/// no method or face asks which platform it runs on.
protocol PlatformLocationProvider: PhoneService {
    /// app.sock's `location.start` with the platform's own request.
    func start(_ session: AppSession, _ params: FusedLocationParams) throws(RPCError)
    /// A face's stream: the fixes the platform's rules give a foreground app that asks
    /// for every fix at `desiredAccuracy` metres (0: the best).
    func startFaceStream(_ session: AppSession, desiredAccuracy: Double)
    /// Whether the session's stream, app's or face's, runs (`apps.list`'s `locationStreaming`,
    /// a loss told to streaming sessions).
    func streams(_ session: AppSession) -> Bool
    /// The session's stream, app's or face's, ends.
    func stop(_ session: AppSession)
    /// `location.once`: the answer now, or nil when the call `id` is answered on `peer`
    /// once a fix comes (or its time is up).
    func current(_ session: AppSession, id: JSONValue, peer: any RPCPeer) throws(RPCError) -> JSONValue?
}
