import NIOCore
import SextantCore
import SextantDBus
import SextantHub
import SextantProtocol

/// A client's `Start` is its app's authorization request (docs/dbus.md, GeoClue): the
/// client's `DesktopId` is the app id, bound to the sender's uid as app.sock's `hello`
/// binds one; the request goes through the authorization engine as app.sock's does (a
/// prompt in `prompts list`, the prompt policy, grants from `sextantctl`), and `Start`
/// answers once it is decided. Refused, or Location Services off: GeoClue's AccessDenied.
extension GeoClueFace {
    /// The level an app's session asks for: a desktop app is used while it is open, and
    /// a GeoClue client's session is always in the foreground unless the control side
    /// moves it (`apps background`), which pauses it as RULES L8 says.
    static let requestLevel = AuthorizationLevel.whenInUse

    func start(_ client: GeoClueClient, _ call: any DBusCall) {
        if client.isActive { return call.reply([]) }
        guard client.pendingStart == nil else { return call.fail(.accessDenied("An authorization request is already pending")) }
        let app = client.desktopID
        guard !app.isEmpty else { return call.fail(.accessDenied("'DesktopId' property must be set")) }
        guard AppID.isValid(app) else {
            return call.fail(.accessDenied("'\(app)' is not an app id Sextant knows: 1-255 of [A-Za-z0-9._-]"))
        }
        client.level = GeoClueAccuracyLevel.settled(client.requestedLevel)
        if let session = client.session, session.app != app {
            // A new desktop id is another app: its own session and its own authorization.
            hub.endSession(session)
            client.session = nil
        }
        openSession(client).assumeIsolated().whenComplete { [self] result in
            guard clients[client.number]?.client === client else { return call.fail(.failed("the client was deleted")) }
            switch result {
            case .failure(let error):
                call.fail(.accessDenied((error as? RPCError)?.message ?? "\(error)"))
            case .success(let session):
                requestAuthorization(client, session, call)
            }
        }
    }

    /// The client's session, opened once its app id is bound to its uid (docs/security.md).
    private func openSession(_ client: GeoClueClient) -> EventLoopFuture<AppSession> {
        if let session = client.session { return handle.eventLoop.assumeIsolated().makeSucceededFuture(session) }
        let app = client.desktopID
        let open = { [self] () throws(RPCError) in
            guard clients[client.number]?.client === client else { throw RPCError.internalError("the client was deleted") }
            // The profile's own orientations are never an empty set: this cannot fail.
            guard let interface = hub.foregroundInterface() else { throw RPCError.internalError("no interface orientation") }
            client.session = hub.openForegroundSession(app: app, interface: interface, output: client)
        }
        do throws(RPCError) {
            if let future = try hub.claimAppID(app, uid: client.credentials.uid, thenOpen: open) {
                return future.assumeIsolated().flatMapThrowing { _ in
                    guard let session = client.session else { throw RPCError.internalError("no session") }
                    return session
                }.nonisolated()
            }
            guard let session = client.session else { throw RPCError.internalError("no session") }
            return handle.eventLoop.assumeIsolated().makeSucceededFuture(session)
        } catch {
            return handle.eventLoop.makeFailedFuture(error)
        }
    }

    private func requestAuthorization(_ client: GeoClueClient, _ session: AppSession, _ call: any DBusCall) {
        let token = hub.authorizationToken { [self] answer in
            client.pendingStart = nil
            guard clients[client.number]?.client === client, client.session === session else { return call.fail(.failed("the client was deleted")) }
            switch answer {
            case .failure(let error):
                call.fail(.accessDenied(refusal(client, error.message)))
            case .success:
                guard hub.mayReceiveLocations(session) else { return call.fail(.accessDenied(refusal(client, nil))) }
                // Answered first, so that the client hears `Start` succeed before its first location.
                call.reply([])
                activate(client, session)
            }
        }
        client.pendingStart = token
        hub.requestAuthorization(session, level: Self.requestLevel, token: token)
    }

    /// What `Start` says when the app may not have locations, with what would change that.
    private func refusal(_ client: GeoClueClient, _ error: String?) -> String {
        let app = client.desktopID
        let uid = client.credentials.uid
        guard hub.locationServicesEnabled else {
            return "Geolocation disabled for UID \(uid): Location Services are off (sextantctl services on)"
        }
        let status = client.session.map { hub.authorizationStatus(of: $0) } ?? .notDetermined
        let reason = error ?? "its authorization is \(status.rawValue)"
        return "'\(app)' disallowed for UID \(uid): \(reason) (sextantctl permissions grant \(app) ...)"
    }

    /// Authorized: the client streams at its level, reduced when either its level or its
    /// app's grant says so (RULES L10), from the last fix the rules let it have.
    func activate(_ client: GeoClueClient, _ session: AppSession) {
        hub.startLocationStream(session, desiredAccuracy: client.level.streamDesiredAccuracy)
        hub.streamsChanged(session)
        hub.clientWantsLocations()
        client.stoppedByRules = false
        client.setActive(true)
        syncInUse()
        logger.info("GeoClue client started", metadata: ["client": "\(client.number)", "app": "\(session.app)", "level": "\(client.level)"])
        // As GeoClue's locator hands a new client the location it has: the latest fix, if
        // the source is not lost, through the same rules as any other.
        hub.deliverCurrentFix(to: session)
    }

    /// `Stop`, or the rules taking the right to locations away.
    func stop(_ client: GeoClueClient, byRules: Bool) {
        guard client.isActive else { return }
        if let session = client.session {
            hub.stopLocationStream(session)
            hub.streamsChanged(session)
        }
        client.setActive(false)
        client.stoppedByRules = byRules
        if byRules { client.withdrawLocations() }
        syncInUse()
        logger.info("GeoClue client stopped", metadata: ["client": "\(client.number)", "by": "\(byRules ? "the rules" : "its owner")"])
    }

    /// A decision reached the client's session: a client the rules no longer serve stops
    /// at once (`Active` false); one they stopped starts again when they allow it.
    func rightsMayHaveChanged(_ client: GeoClueClient) {
        guard let session = client.session else { return }
        let allowed = hub.mayReceiveLocations(session)
        if client.isActive, !allowed {
            stop(client, byRules: true)
        } else if client.stoppedByRules, allowed {
            activate(client, session)
        }
    }
}
