import NIOCore
import SextantCore
import SextantProtocol

/// The app socket's methods (PROTOCOL "App socket").
extension Hub {
    static let appMethods: Set<String> = [
        Method.hello, Method.authorizationGet, Method.authorizationRequest, Method.locationStart, Method.locationStop,
        Method.locationOnce, Method.orientationStart, Method.orientationStop, Method.postureStart, Method.postureStop,
        Method.appUpdate,
    ]

    func handleApp(method: String, params: JSONValue?, id: JSONValue?, on connection: Connection) throws(RPCError) -> Reply {
        // Precedence: -32601, then 1003, then -32602.
        guard Self.appMethods.contains(method) else { throw RPCError(.methodNotFound, "no method \"\(method)\" on the app socket") }
        if method == Method.hello { return try hello(Params(params), on: connection) }
        guard let sessionID = connection.session, let session = sessions[sessionID] else {
            throw RPCError(.noSession, "call hello first")
        }
        let p = try Params(params)
        switch method {
        case Method.authorizationGet:
            var result = authorization.authorization(of: sessionID).json.objectValue!
            result["servicesEnabled"] = .bool(authorization.servicesEnabled)
            return .result(.object(result))

        case Method.authorizationRequest:
            guard let level = try p.name("level", as: AuthorizationLevel.self) else {
                throw .invalidParams("\"level\" is required: whenInUse or always")
            }
            // Hub+Store: a decision the policy makes at once is committed before it applies.
            return requestAuthorization(sessionID, level: level, token: makeToken(for: connection, id: id))

        case Method.locationStart:
            let desired = try p.number("desiredAccuracy") ?? 0
            let distance = try p.number("distanceFilter") ?? 0
            guard desired >= 0 else { throw .invalidParams("\"desiredAccuracy\" must not be negative") }
            guard distance >= 0 else { throw .invalidParams("\"distanceFilter\" must not be negative") }
            if case .failure(let refusal) = authorization.checkLocationAccess(sessionID, at: now) {
                defer { perform(authorization.drainPendingEffects()) }
                return .error(refusal.rpcError)
            }
            let wasStreaming = session.stream != nil
            session.stream = LocationStream(desiredAccuracy: desired, distanceFilter: distance)
            // A stream that starts while the GPS source is lost hears of the loss at once,
            // once (a restart of the same stream has heard it already).
            if let loss = locationLoss, !wasStreaming { tellLocationUnavailable(session, loss) }
            return .result([:])

        case Method.locationStop:
            session.stream = nil
            return .result([:])

        case Method.locationOnce:
            if case .failure(let refusal) = authorization.checkLocationAccess(sessionID, at: now) {
                defer { perform(authorization.drainPendingEffects()) }
                return .error(refusal.rpcError)
            }
            guard authorization.mayReceiveLocations(sessionID) else {
                return .error(RPCError(.notAuthorized, "authorizedWhenInUse delivers locations only in the foreground"))
            }
            guard let id else { return .result(.null) }
            let timeout = configuration.locationOnceTimeout
            let scheduled = eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)) { [weak session] in
                guard let session, let index = session.onceWaiters.firstIndex(where: { $0.id == id }) else { return }
                session.onceWaiters.remove(at: index)
                session.connection.respond(id, .failure(RPCError(.sourceUnavailable, "no location fix within \(timeout)")))
            }
            session.onceWaiters.append((id, scheduled))
            return .deferred

        case Method.orientationStart, Method.orientationStop:
            session.wantsOrientation = method == Method.orientationStart
            return .result([:])

        case Method.postureStart, Method.postureStop:
            session.wantsPosture = method == Method.postureStart
            return .result([:])

        case Method.appUpdate:
            let state = try p.name("state", as: AppState.self)
            let orientations = try interfaceOrientations(p)
            let locked = try p.bool("interfaceLocked")
            if let orientations {
                do {
                    let change = try session.interface.setSupported(orientations, interfaceConditions)
                    publishInterface(change, to: session)
                } catch {
                    throw error.rpcError
                }
            }
            if let locked { publishInterface(session.interface.setInterfaceLocked(locked, interfaceConditions), to: session) }
            if let state { setAppState(session, state) }
            return .result(appStateJSON(session))

        default:
            throw RPCError(.methodNotFound, "no method \"\(method)\" on the app socket")
        }
    }

    private func hello(_ p: Params, on connection: Connection) throws(RPCError) -> Reply {
        guard connection.session == nil else { throw RPCError(.invalidRequest, "hello was already said on this connection") }
        let app = try p.requiredString("app")
        guard AppID.isValid(app) else { throw .invalidParams("\"app\" must be 1-255 of [A-Za-z0-9._-], e.g. com.example.maps") }
        let state = try p.name("state", as: AppState.self) ?? .foreground
        let declared = try interfaceOrientations(p)
        let interface: AppInterfaceOrientation
        do {
            interface = try AppInterfaceOrientation(declared: declared, state: state, conditions: interfaceConditions)
        } catch {
            throw error.rpcError
        }
        // docs/security.md: the app id must be this uid's (Hub+Store).
        return try claimAppID(app, by: connection) { [self] () throws(RPCError) -> JSONValue in
            guard connection.session == nil else { throw RPCError(.invalidRequest, "hello was already said on this connection") }
            let session = openSession(app: app, state: state, interface: interface, connection: connection)
            return helloResult(session)
        }
    }

    private func helloResult(_ session: AppSession) -> JSONValue {
        [
            "protocol": .int(Int64(sextantProtocolVersion)),
            "session": .int(Int64(session.id)),
            "profile": .string(configuration.profile.rawValue),
            "servicesEnabled": .bool(authorization.servicesEnabled),
            "authorization": authorization.authorization(of: session.id).json,
            "interfaceOrientation": JSONValue(session.interface.orientation?.rawValue),
            "deviceOrientation": .string(judge.orientation.rawValue),
            "posture": postureJSON,
        ]
    }

    private func interfaceOrientations(_ p: Params) throws(RPCError) -> [InterfaceOrientation]? {
        guard let names = try p.stringList("orientations") else { return nil }
        var out: [InterfaceOrientation] = []
        for name in names {
            guard let o = InterfaceOrientation(rawValue: name) else {
                throw .invalidParams("\"orientations\": \(name) is not an interface orientation (portrait, portraitUpsideDown, landscapeLeft, landscapeRight)")
            }
            if !out.contains(o) { out.append(o) }
        }
        return out
    }

    /// Moves an app between foreground and background (RULES L5, L6, L8, O6, O11).
    func setAppState(_ session: AppSession, _ state: AppState) {
        guard authorization.appState(of: session.id) != state else { return }
        perform(authorization.setAppState(session.id, state, at: now))
        publishInterface(session.interface.setState(state, interfaceConditions), to: session)
        if !authorization.mayReceiveLocations(session.id) {
            // L8: a when-in-use stream pauses in the background; nothing queued leaks out.
            session.connection.discardQueuedLocations()
            session.failOnceWaiters(RPCError(.notAuthorized, "authorizedWhenInUse delivers locations only in the foreground"))
        }
        logger.info("app state changed", metadata: ["app": "\(session.app)", "session": "\(session.id)", "state": "\(state.rawValue)"])
    }

    func appStateJSON(_ session: AppSession) -> JSONValue {
        [
            "state": .string((authorization.appState(of: session.id) ?? .foreground).rawValue),
            "interfaceOrientation": JSONValue(session.interface.orientation?.rawValue),
        ]
    }
}
