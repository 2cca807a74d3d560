import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// The control socket's methods (PROTOCOL "Control socket"), for `sextantctl`.
extension Hub {
    func handleControl(method: String, params: JSONValue?, on connection: Connection) throws(RPCError) -> Reply {
        let p = try Params(params)
        switch method {
        case Method.status:
            return .result(statusJSON())

        case Method.servicesSet:
            let enabled = try p.requiredBool("enabled")
            return .later(try commitDecision { engine in (["enabled": .bool(enabled)], engine.setServicesEnabled(enabled)) })

        case Method.permissionsList:
            return .result(.array(permissionEntries()))

        case Method.permissionsSet:
            let app = try validApp(p.requiredString("app"))
            guard let status = try p.name("status", as: AuthorizationStatus.self) else { throw .invalidParams("\"status\" is required") }
            let accuracy = try p.name("accuracy", as: LocationAccuracy.self)
            let time = now
            logger.info("permission set", metadata: ["app": "\(app)", "status": "\(status.rawValue)", "accuracy": "\(accuracy?.rawValue ?? "kept")"])
            return .later(
                try commitDecision { engine in
                    let (entry, effects) = engine.setPermission(app: app, status: status, accuracy: accuracy, at: time)
                    return (entry.json(app: app), effects)
                })

        case Method.permissionsReset:
            let app = try p.string("app").map { (name) throws(RPCError) in try validApp(name) }
            return .later(
                try commitDecision { engine in
                    let (count, effects) = engine.resetPermissions(app: app)
                    return (["count": .int(Int64(count))], effects)
                })

        case Method.permissionsOwners:
            return .result(.array(ownerEntries()))

        case Method.permissionsUnbind:
            return .later(unbindAppID(try validApp(p.requiredString("app"))))

        case Method.promptsList:
            return .result(.array(authorization.prompts.map(\.json)))

        case Method.promptsAnswer:
            let id = try p.requiredString("id")
            guard let choice = try p.name("choice", as: PromptChoice.self) else { throw .invalidParams("\"choice\" is required") }
            let precise = try p.bool("precise") ?? true
            let time = now
            return .later(try commitDecision { (engine: inout AuthorizationEngine) throws(RPCError) in try Self.answerPrompt(&engine, id: id, choice: choice, precise: precise, at: time) })

        case Method.promptsPolicy:
            let mode = try p.requiredString("mode")
            let precise = try p.bool("precise") ?? true
            guard let policy = PromptPolicy(mode: mode, precise: precise) else {
                throw .invalidParams("\"mode\" must be one of: \(PromptPolicy.validModes.joined(separator: ", "))")
            }
            let time = now
            return .later(try commitDecision { engine in (policy.json, Self.setPolicy(&engine, policy, at: time)) })

        case Method.appsList:
            return .result(.array(sessions.values.sorted { $0.id < $1.id }.map(appEntry)))

        case Method.appsUpdate:
            guard let state = try p.name("state", as: AppState.self) else { throw .invalidParams("\"state\" is required: foreground or background") }
            let targets = try sessionsNamed(p)
            for session in targets { setAppState(session, state) }
            return .result(.array(targets.map(appEntry)))

        case Method.deviceSet:
            return try deviceSet(p)

        case Method.deviceRotationLock:
            setRotationLock(try p.requiredBool("enabled"))
            return .result(["enabled": .bool(rotationLock)])

        case Method.replayStart:
            let path = try p.requiredString("path")
            let loop = try p.bool("loop") ?? false
            let speed: ReplaySpeed
            switch p.members["speed"] {
            case .none, .some(.null): speed = .factor(1)
            case .some(.string("max")): speed = .max
            case .some(let value):
                guard let factor = value.doubleValue, factor > 0, factor.isFinite else {
                    throw .invalidParams("\"speed\" must be a positive number or \"max\"")
                }
                speed = .factor(factor)
            }
            return .later(startReplay(path: path, speed: speed, loop: loop).map { [:] })

        case Method.replayStop:
            replay.stop()
            return .result(replay.statusJSON)

        case Method.replayStatus:
            return .result(replay.statusJSON)

        case Method.recordStart:
            let path = try p.requiredString("path")
            if let recorder {
                throw RPCError(.invalidParams, "already recording to \(recorder.path): stop it first")
            }
            do {
                recorder = try TraceRecorder(path: path, profile: configuration.profile)
            } catch {
                throw RPCError(.sourceUnavailable, "cannot write \(path): \(error)")
            }
            sourceStates["record"] = "recording"
            return .result([:])

        case Method.recordStop:
            guard let recorder else { throw RPCError(.invalidParams, "not recording") }
            recorder.finish()
            self.recorder = nil
            sourceStates["record"] = nil
            return .result(["path": .string(recorder.path), "events": .int(Int64(recorder.count))])

        case Method.watch:
            let topics = try p.stringList("topics") ?? []
            connection.watchTopics = Set(topics)
            return .result([:])

        default:
            throw RPCError(.methodNotFound, "no method \"\(method)\" on the control socket")
        }
    }

    func startReplay(path: String, speed: ReplaySpeed, loop: Bool) -> EventLoopFuture<Void> {
        let options = TraceLoadOptions(gpxSpeed: configuration.gpxSpeed)
        return fileThread.runIfActive(eventLoop: eventLoop) { () throws -> Result<Trace, TraceLoadError> in
            do throws(TraceLoadError) { return .success(try TraceLoader.load(path: path, options: options)) } catch { return .failure(error) }
        }.flatMapThrowing { [self] loaded in
            switch loaded {
            case .success(let trace):
                replay.start(trace: trace, path: path, speed: speed, loop: loop)
            case .failure(.unreadable(let path, let reason)):
                logger.warning("replay: cannot read the trace", metadata: ["path": "\(path)", "reason": "\(reason)"])
                throw RPCError(.sourceUnavailable, "cannot read \(path): \(reason)", data: ["path": .string(path)])
            case .failure(.invalid(let error)):
                logger.warning("replay: bad trace", metadata: ["path": "\(error.path)", "line": "\(error.line)", "reason": "\(error.reason)"])
                throw RPCError(
                    .invalidTrace, "\(error.path):\(error.line): \(error.reason)",
                    data: ["path": .string(error.path), "line": .int(Int64(error.line)), "reason": .string(error.reason)])
            }
        }
    }

    /// `prompts.answer` on an engine (the hub's, or a copy being staged: Hub+Store).
    private static func answerPrompt(
        _ engine: inout AuthorizationEngine, id: String, choice: PromptChoice, precise: Bool, at time: EngineTime
    ) throws(RPCError) -> (JSONValue, [AuthorizationEffect]) {
        let answer: AuthorizationEngine.AnswerResult
        do {
            answer = try engine.answer(id, choice: choice, precise: precise, at: time)
        } catch {
            switch error {
            case .noSuchPrompt(let id): throw RPCError(.noSuchPrompt, "no pending prompt \"\(id)\"")
            case .invalidChoice(let why): throw .invalidParams(why)
            }
        }
        var members: [String: JSONValue] = [
            "id": .string(answer.prompt.id), "app": .string(answer.prompt.app), "kind": .string(answer.prompt.kind.rawValue),
            "choice": .string(choice.rawValue),
        ]
        if let auth = answer.authorization, answer.prompt.kind == .authorization {
            members["status"] = .string(auth.status.rawValue)
            members["accuracy"] = .string(auth.accuracy.rawValue)
        }
        return (.object(members), answer.effects)
    }

    /// `prompts.policy` on an engine: a policy answers what is already pending too, oldest first.
    private static func setPolicy(_ engine: inout AuthorizationEngine, _ policy: PromptPolicy, at time: EngineTime) -> [AuthorizationEffect] {
        var effects = engine.setPolicy(policy)
        guard let policyChoice = policy.choice else { return effects }
        for prompt in engine.prompts {
            var choice = prompt.kind == .servicesOff ? PromptChoice.cancel : policyChoice
            if choice == .allowAlways, prompt.level != .always { choice = .allowWhileUsing }
            if let answer = try? engine.answer(prompt.id, choice: choice, precise: policy.precise, at: time) {
                effects += answer.effects
            }
        }
        return effects
    }

    private func validApp(_ app: String) throws(RPCError) -> String {
        guard AppID.isValid(app) else { throw .invalidParams("\"app\" must be 1-255 of [A-Za-z0-9._-]") }
        return app
    }

    /// `apps.update` names a live session by `session` (its number) or by `app` (all its sessions).
    private func sessionsNamed(_ p: Params) throws(RPCError) -> [AppSession] {
        if let value = p.members["session"], !value.isNull {
            guard let number = value.intValue ?? value.stringValue.flatMap({ Int($0) }) else {
                throw .invalidParams("\"session\" must be a session number")
            }
            guard let session = sessions[SessionID(clamping: number)] else { throw RPCError(.unknownApp, "no live session \(number)") }
            return [session]
        }
        let app = try p.requiredString("app")
        let matching = sessions.values.filter { $0.app == app }.sorted { $0.id < $1.id }
        guard !matching.isEmpty else { throw RPCError(.unknownApp, "no live session of app \"\(app)\"") }
        return matching
    }

    private func deviceSet(_ p: Params) throws(RPCError) -> Reply {
        let time = wallNow()
        var samples: [SampleValue] = []
        if let location = try p.object("location") {
            guard let lat = try location.number("lat"), let lon = try location.number("lon") else {
                throw .invalidParams("\"location\" needs lat and lon")
            }
            if let problem = LocationFix.problem(latitude: lat, longitude: lon) { throw .invalidParams("location: \(problem)") }
            let hAcc = try location.number("hAcc") ?? LocationFix.defaultHorizontalAccuracy
            guard hAcc >= 0 else { throw .invalidParams("location.hAcc must not be negative") }
            let speed = try location.number("speed"), course = try location.number("course")
            if let speed, speed < 0 { throw .invalidParams("location.speed must not be negative") }
            if let course, !(0..<360).contains(course) { throw .invalidParams("location.course must be within 0..<360") }
            samples.append(
                .location(
                    LocationFix(
                        latitude: lat, longitude: lon, altitude: try location.number("alt"), horizontalAccuracy: hAcc,
                        verticalAccuracy: try location.number("vAcc"), speed: speed, course: course, time: time)))
        }
        // O4a: an acceleration or orientation set by hand is held, not sent once.
        var held: Acceleration?
        var release = false
        if case .some(.null) = p.members["acceleration"] {
            release = true
        } else if let a = try p.object("acceleration") {
            guard let x = try a.number("x"), let y = try a.number("y"), let z = try a.number("z") else {
                throw .invalidParams("\"acceleration\" needs x, y and z")
            }
            held = Acceleration(x: x, y: y, z: z)
        }
        if let orientation = try p.name("orientation", as: DeviceOrientation.self) {
            guard let gravity = ManualGravity.vector(for: orientation) else {
                throw .invalidParams("\"orientation\" must be an upright orientation, faceUp or faceDown")
            }
            held = gravity
        }
        if let angle = try p.number("hingeAngle") {
            guard (0...180).contains(angle) else { throw .invalidParams("\"hingeAngle\" must be within 0...180") }
            samples.append(.hingeAngle(angle))
        }
        guard !samples.isEmpty || held != nil || release else {
            throw .invalidParams("give at least one of location, acceleration, orientation, hingeAngle")
        }
        sourceStates[SourceName.manual.rawValue] = "active"
        for value in samples { ingest(Sample(time: time, value: value), from: .manual) }
        if let held {
            manualAccelerometer.hold(held)
        } else if release {
            manualAccelerometer.release()
        }
        return .result([:])
    }

    // MARK: - Views

    func statusJSON() -> JSONValue {
        let uptime = Double(monotonicNow() - startedAt) / 1e9
        var sources: [JSONValue] = []
        for name in sourceStates.keys.sorted() {
            sources.append(["name": .string(name), "state": .string(sourceStates[name]!)])
        }
        return [
            "version": .string(configuration.version),
            "uptime": .double((uptime * 1000).rounded() / 1000),
            "profile": .string(configuration.profile.rawValue),
            "sources": .array(sources),
            "replay": replay.statusJSON,
            "servicesEnabled": .bool(authorization.servicesEnabled),
            "rotationLock": .bool(rotationLock),
            "deviceOrientation": .string(judge.orientation.rawValue),
            "posture": postureJSON,
            "location": lastFix.map { $0.json(accuracy: nil) } ?? .null,
            "sessions": .int(Int64(sessions.count)),
            "promptPolicy": authorization.policy.json,
            "recording": recorder.map { JSONValue.string($0.path) } ?? .null,
        ]
    }

    func permissionEntries() -> [JSONValue] {
        var entries: [String: JSONValue] = [:]
        for (app, entry) in authorization.permissions { entries[app] = entry.json(app: app) }
        for (app, accuracy) in authorization.allowOnceGrants {
            entries[app] = [
                "app": .string(app), "status": .string(AuthorizationStatus.authorizedWhenInUse.rawValue),
                "accuracy": .string(accuracy.rawValue), "allowOnce": true, "updated": .string(wallNow().rfc3339),
            ]
        }
        // The uid the app id is bound to (docs/security.md), null if none.
        return entries.keys.sorted().map { app in
            var entry = entries[app]!.objectValue ?? [:]
            entry["uid"] = owners[app].map { .int(Int64($0)) } ?? .null
            return .object(entry)
        }
    }

    func appEntry(_ session: AppSession) -> JSONValue {
        let auth = authorization.authorization(of: session.id)
        return [
            "session": .int(Int64(session.id)),
            "app": .string(session.app),
            "pid": session.connection.credentials.map { JSONValue.int(Int64($0.pid)) } ?? .null,
            "uid": session.connection.credentials.map { JSONValue.int(Int64($0.uid)) } ?? .null,
            "state": .string((authorization.appState(of: session.id) ?? .foreground).rawValue),
            "interfaceOrientation": JSONValue(session.interface.orientation?.rawValue),
            "orientations": .array(session.interface.declared.map { .string($0.rawValue) }),
            "interfaceLocked": .bool(session.interface.interfaceLocked),
            "authorization": auth.json,
            "locationStreaming": .bool(session.stream != nil),
        ]
    }
}

/// `device.set` with `orientation` holds an exact gravity vector (RULES O4a).
enum ManualGravity {
    static func vector(for orientation: DeviceOrientation) -> Acceleration? {
        let g = Acceleration.standardGravity
        switch orientation {
        case .portrait: return Acceleration(x: 0, y: g, z: 0)
        case .portraitUpsideDown: return Acceleration(x: 0, y: -g, z: 0)
        case .landscapeLeft: return Acceleration(x: g, y: 0, z: 0)
        case .landscapeRight: return Acceleration(x: -g, y: 0, z: 0)
        case .faceUp: return Acceleration(x: 0, y: 0, z: g)
        case .faceDown: return Acceleration(x: 0, y: 0, z: -g)
        case .unknown: return nil
        }
    }
}
