import NIOCore
import SextantCore
import SextantProtocol
import SextantStore

/// What the hub keeps of the store besides the engine's decisions, written only by the
/// hub's operations in this file.
final class StoreBackedState {
    /// Each app's committed grid shift (RULES L10).
    fileprivate(set) var fudgers: [String: LocationFudger]
    /// Apps whose first grid shift is being written: their reduced fixes wait for it.
    fileprivate(set) var gridOffsetsBeingWritten: Set<String> = []
    /// App id → the uid it is bound to (docs/security.md).
    fileprivate(set) var owners: AppOwners
    /// The last decision change being committed: the next one waits for it.
    fileprivate(set) var decisionInFlight: EventLoopFuture<Void>?

    init(snapshot: StoreSnapshot) {
        fudgers = snapshot.fudgers
        owners = AppOwners(stored: snapshot.owners)
    }
}

/// Where the hub writes to the permission store.
///
/// Every write goes through GRDB's one serialized writer (`SextantStore.asyncWrite`): batches
/// are committed in the order they were asked for, each batch in one transaction. A decision
/// takes effect only once it is on disk (`commitDecision`), so that a failed write changes
/// nothing and a `kill -9` loses nothing an app or `sextantctl` has already been told.
extension Hub {
    /// Writes a batch; the future completes on the event loop once it is committed, or fails
    /// with -32603 naming the store. The owners of the apps it stores something of are
    /// written with it (``AppOwners``); an app's own request that would store a binding past
    /// its uid's limit fails with 1013 and writes nothing.
    func write(_ changes: [StoreChange], from origin: WriteOrigin = .app, storingOwnerOf apps: [String] = []) -> EventLoopFuture<Void> {
        guard !changes.isEmpty || !apps.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        let bindings: [(app: String, uid: UInt32)]
        do throws(RPCError) { bindings = try bindingsToStore(for: apps + changes.compactMap(\.appHeld), from: origin) } catch {
            return eventLoop.makeFailedFuture(error)
        }
        let promise = eventLoop.makePromise(of: Void.self)
        if !bindings.isEmpty {
            // Registered first: the bindings are settled before any caller hears the outcome.
            promise.futureResult.assumeIsolated().whenComplete { [self] result in settleBindings(bindings, written: result) }
        }
        let logger = self.logger
        store.asyncWrite(bindings.map { StoreChange.owner(app: $0.app, uid: $0.uid) } + changes) { result in
            switch result {
            case .success:
                promise.succeed()
            case .failure(let error):
                logger.error("cannot write the permission store", metadata: ["path": "\(error.path)", "error": "\(error.reason)"])
                promise.fail(RPCError.internalError("\(error.description); nothing was changed"))
            }
        }
        return promise.futureResult
    }

    static func storeChange(_ effect: AuthorizationEffect) -> StoreChange? {
        switch effect {
        case .persistPermission(let app, let entry): return .permission(app: app, entry)
        case .persistServicesEnabled(let enabled): return .servicesEnabled(enabled)
        case .persistPolicy(let policy): return .policy(policy)
        case .persistAndroidPermission(let app, let entry): return .androidPermission(app: app, entry)
        case .persistIOSFacets(let app, let facets): return .iosFacets(app: app, facets)
        case .persistMotionPermission(let app, let status): return .motionPermission(app: app, status)
        case .persistMotionDenials(let app, let denials): return .motionDenials(app: app, denials)
        default: return nil
        }
    }

    /// A change of decisions (RULES L1, L2, L12) that takes effect only after its commit.
    ///
    /// `change` is first run on a copy of the engine, to learn what it would store; the live
    /// engine keeps deciding as before while that is written. Once it is committed, `change`
    /// runs on the live engine and its events and replies go out; if the write fails, the
    /// live engine was never touched, no app hears anything, and the caller gets -32603.
    /// Running it again (rather than swapping in the copy) keeps whatever happened in
    /// between: sessions opened or closed, apps moved to the background. Should that make the
    /// second run decide something else than what was written, the store is brought in line
    /// with the engine before the caller is answered.
    ///
    /// Changes apply in the order they were asked for: one asked while another is being
    /// written is staged only once that one is in force (a `permissions reset` sent right
    /// after a `permissions set` resets what was set).
    func commitDecision<Value: Sendable>(
        from origin: WriteOrigin = .app, _ change: @escaping (inout AuthorizationEngine) throws(RPCError) -> (Value, [AuthorizationEffect])
    ) throws(RPCError) -> EventLoopFuture<Value> {
        let future: EventLoopFuture<Value>
        if let previous = stored.decisionInFlight {
            future = previous.assumeIsolated().flatMap { [self] () -> EventLoopFuture<Value> in
                do throws(RPCError) { return try stageAndCommit(origin, change) } catch { return eventLoop.makeFailedFuture(error) }
            }.nonisolated()
        } else {
            future = try stageAndCommit(origin, change)
        }
        let done = future.assumeIsolated().map { _ in () }.recover { _ in () }.nonisolated()
        stored.decisionInFlight = done
        done.assumeIsolated().whenComplete { [self] _ in
            if stored.decisionInFlight === done { stored.decisionInFlight = nil }
        }
        return future
    }

    private func stageAndCommit<Value: Sendable>(
        _ origin: WriteOrigin, _ change: @escaping (inout AuthorizationEngine) throws(RPCError) -> (Value, [AuthorizationEffect])
    ) throws(RPCError) -> EventLoopFuture<Value> {
        var staged = authorization
        let (stagedResult, stagedEffects) = try change(&staged)
        let written = stagedEffects.compactMap(Self.storeChange)
        guard !written.isEmpty else {
            applyDecision { $0 = staged }
            perform(stagedEffects)
            return eventLoop.makeSucceededFuture(stagedResult)
        }
        return write(written, from: origin).assumeIsolated().flatMap { [self] in
            let outcome: Result<(Value, [AuthorizationEffect]), RPCError>
            do throws(RPCError) { outcome = .success(try applyDecision(change)) } catch { outcome = .failure(error) }
            let applied = (try? outcome.get().1) ?? []
            perform(applied.filter { Self.storeChange($0) == nil })
            let corrections = storeCorrections(written: written, applied: applied.compactMap(Self.storeChange))
            if !corrections.isEmpty {
                logger.notice("the store is brought in line with a decision changed during its write", metadata: ["changes": "\(corrections.count)"])
            }
            // Bringing the store in line with what is in force is never refused.
            return write(corrections, from: .control).flatMapResult { outcome.map(\.0) }
        }.nonisolated()
    }

    /// What must be written so that the store holds the live engine's decisions for every
    /// key written or changed: nothing when the second run decided as the first.
    private func storeCorrections(written: [StoreChange], applied: [StoreChange]) -> [StoreChange] {
        var corrections: [StoreChange] = []
        for change in written + applied {
            let live: StoreChange
            switch change {
            case .permission(let app, _): live = .permission(app: app, authorization.permissions[app])
            case .servicesEnabled: live = .servicesEnabled(authorization.servicesEnabled)
            case .policy: live = .policy(authorization.policy)
            case .androidPermission(let app, _): live = .androidPermission(app: app, authorization.android.apps[app])
            case .iosFacets(let app, _): live = .iosFacets(app: app, authorization.ios.apps[app])
            default: continue  // not an authorization decision: nothing the engine can change
            }
            if !written.contains(live), !corrections.contains(live) { corrections.append(live) }
        }
        return corrections
    }

    /// The grid shift of an app whose fixes are served reduced (RULES L10), or nil while it
    /// is being made. The first one is made on first use and must be on disk before any fix
    /// coarsened with it leaves, or a `kill -9` would give the app another grid after the
    /// restart: the fix waits, and the newest fix is delivered to the app once it is committed.
    func committedFudger(for app: String) -> LocationFudger? {
        if let existing = stored.fudgers[app] { return existing }
        guard !stored.gridOffsetsBeingWritten.contains(app) else { return nil }
        var generator = SystemRandomNumberGenerator()
        let fresh = LocationFudger.random(using: &generator)
        stored.gridOffsetsBeingWritten.insert(app)
        let written = write([.gridOffset(app: app, fresh)])
        // A replay waits for the grid with the fix, so that the fix goes at every speed (L10).
        defer { replay.wait(for: written) }
        written.assumeIsolated().whenComplete { [self] result in
            stored.gridOffsetsBeingWritten.remove(app)
            // A failed write is logged; the next fix tries again.
            guard case .success = result else { return }
            stored.fudgers[app] = fresh
            services.fixes.gridCommitted(for: app)
        }
        return nil
    }
}

// MARK: - App ids and their owners

extension Hub {
    /// `hello`'s check of who says an app id (docs/security.md): an app id belongs to the
    /// uid that first said it, and is refused to every other uid with 1009 until
    /// `sextantctl permissions unbind` frees it. A first claim binds it in memory only; the
    /// binding is stored with the first thing the app id stores (`write`), and forgotten
    /// with its last session if nothing was.
    func claimAppID(_ app: String, by peer: any RPCPeer, then open: @escaping () throws(RPCError) -> JSONValue) throws(RPCError) -> Reply {
        guard let uid = peer.credentials?.uid else { throw .internalError("the peer's uid is not known") }
        return try claimAppID(app, uid: uid, then: open)
    }

    /// The same for a client of any face whose uid the face knows (the gpsd face reads it
    /// from /proc).
    func claimAppID(_ app: String, uid: UInt32, then open: @escaping () throws(RPCError) -> JSONValue) throws(RPCError) -> Reply {
        if let owner = stored.owners.owner(of: app) ?? Self.ownerByName(of: app), owner != uid {
            logger.warning("hello refused: the app id belongs to another uid", metadata: ["app": "\(app)", "owner": "\(owner)", "uid": "\(uid)"])
            throw RPCError(
                .wrongUser, "app id \"\(app)\" belongs to uid \(owner); this client is uid \(uid)",
                data: ["app": .string(app), "owner": .int(Int64(owner)), "uid": .int(Int64(uid))])
        }
        if stored.owners.owner(of: app) == nil {
            logger.info("app id bound to its first uid", metadata: ["app": "\(app)", "uid": "\(uid)"])
            stored.owners.bindUnwritten(app, to: uid)
        }
        guard stored.owners[app] == nil, holdsStored(app) else {
            do {
                return .result(try open())
            } catch {
                appSessionEnded(app)
                throw error
            }
        }
        // Unbound while it holds something stored (`permissions unbind`): its new owner is
        // stored before the session opens, as the binding of any app id that holds something.
        let opened = write([], storingOwnerOf: [app]).assumeIsolated().flatMapThrowing { () throws -> JSONValue in
            do throws(RPCError) { return try open() } catch { throw error }
        }.flatMapErrorThrowing { [self] error in
            appSessionEnded(app)
            throw error
        }
        return .later(opened.nonisolated())
    }

    /// Whether the store holds something of the app: a decision, a grid shift, a service's (a region).
    func holdsStored(_ app: String) -> Bool {
        authorization.permissions[app] != nil || authorization.android.apps[app] != nil || stored.fudgers[app] != nil
            || services.holdsStored(app)
    }

    /// A session of the app ended (or failed to open): with none left, a binding that was
    /// never stored is forgotten.
    func appSessionEnded(_ app: String) {
        guard stored.owners.unwritten[app] != nil, !sessions.hasSession(of: app) else { return }
        stored.owners.forgetUnwritten(app)
    }

    /// Whether a uid is held to the limits on what it may make the daemon keep: any uid but
    /// root and the daemon's own (the control side's).
    func isLimited(_ uid: UInt32) -> Bool { uid != 0 && uid != configuration.ownerUID }

    /// The bindings a batch must carry: those of the apps it stores something of that are
    /// not yet confirmed on disk. New ones are counted as stored at once, so that a second
    /// batch asked meanwhile counts them too.
    private func bindingsToStore(for apps: [String], from origin: WriteOrigin) throws(RPCError) -> [(app: String, uid: UInt32)] {
        var bindings: [(app: String, uid: UInt32)] = []
        var new: [UInt32: Int] = [:]
        for app in apps where !bindings.contains(where: { $0.app == app }) {
            if let uid = stored.owners[app] {
                if stored.owners.confirming.contains(app) { bindings.append((app, uid)) }
            } else if let uid = stored.owners.unwritten[app] {
                bindings.append((app, uid))
                new[uid, default: 0] += 1
            }
        }
        let limit = configuration.maxAppsPerUID
        for (uid, count) in new where origin == .app && isLimited(uid) && stored.owners.storedCount(of: uid) + count > limit {
            logger.notice("refused: the uid holds as many stored app ids as it may", metadata: ["uid": "\(uid)", "limit": "\(limit)"])
            throw RPCError(
                .tooManyApps,
                "uid \(uid) holds \(stored.owners.storedCount(of: uid)) app ids with stored decisions or regions, at most \(limit): "
                    + "nothing more is stored for a new app id of it (sextantctl permissions unbind frees one)",
                data: ["uid": .int(Int64(uid)), "limit": .int(Int64(limit))])
        }
        for (app, uid) in bindings where stored.owners.unwritten[app] == uid { stored.owners.beginStoring(app, as: uid) }
        return bindings
    }

    /// After a write that carried bindings: each is confirmed, or, failed, unwritten again.
    private func settleBindings(_ bindings: [(app: String, uid: UInt32)], written result: Result<Void, any Error>) {
        for (app, uid) in bindings {
            switch result {
            case .success: stored.owners.confirm(app, as: uid)
            case .failure: stored.owners.storingFailed(app, as: uid, live: sessions.hasSession(of: app))
            }
        }
    }

    /// The uid an app id belongs to by its name alone: `gpsd.uidN` is what the gpsd face calls
    /// uid N's clients whose program it may not read, so no other uid may take it first
    /// (docs/security.md).
    static func ownerByName(of app: String) -> UInt32? {
        guard app.hasPrefix("gpsd.uid") else { return nil }
        let digits = app.dropFirst("gpsd.uid".count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return UInt32(digits)
    }

    /// `permissions.owners`: every bound app id with its uid, by app id.
    /// Those held only while a session lives (nothing of the app stored yet) say `stored: false`.
    func ownerEntries() -> [JSONValue] {
        let owners = stored.owners
        return Set(owners.stored.keys).union(owners.unwritten.keys).sorted().map { app in
            guard let uid = owners.stored[app] else { return ["app": .string(app), "uid": .int(Int64(owners.unwritten[app]!)), "stored": false] }
            return ["app": .string(app), "uid": .int(Int64(uid))]
        }
    }

    /// `permissions.unbind`: the app id is free for the next uid that says it. Live sessions
    /// keep running; the previous uid is returned (null if it was not bound).
    func unbindAppID(_ app: String) -> EventLoopFuture<JSONValue> {
        guard let previous = stored.owners[app] else {
            // Bound in memory only (a live session that stored nothing): nothing to write.
            let unwritten = stored.owners.unwritten[app]
            stored.owners.unbind(app)
            return eventLoop.makeSucceededFuture(["app": .string(app), "uid": unwritten.map { .int(Int64($0)) } ?? .null])
        }
        return write([.owner(app: app, uid: nil)]).assumeIsolated().map { [self] () -> JSONValue in
            // Written first: a failed write leaves the binding as it was.
            if stored.owners[app] == previous { stored.owners.unbind(app) }
            logger.info("app id unbound", metadata: ["app": "\(app)", "uid": "\(previous)"])
            return ["app": .string(app), "uid": .int(Int64(previous))]
        }.nonisolated()
    }
}

// MARK: - Requests from apps

extension Hub {
    /// `authorization.request` (RULES L4–L7, L12). When the prompt policy answers at once, the
    /// request stores a decision: like a control call, it takes effect only once committed,
    /// and a failed write answers the request with -32603 with nothing changed (no prompt
    /// shown, no event, the app may ask again).
    func requestAuthorization(_ session: SessionID, level: AuthorizationLevel, permissions: Set<AndroidPermission>? = nil, token: RequestToken) -> Reply {
        let time = now
        let committed: EventLoopFuture<AuthorizationRefusal?>
        do throws(RPCError) {
            committed = try commitDecision { engine in
                let outcome = engine.request(session, level: level, permissions: permissions, token: token, at: time)
                return (outcome.refusal, outcome.effects)
            }
        } catch {
            // A peer's request is answered with `.error` by its caller; a face's waiter hears it here.
            if case .face(let answer)? = forgetAuthorizationWaiter(token) { answer(.failure(error)) }
            return .error(error)
        }
        committed.assumeIsolated().whenComplete { [self] result in
            // Refused (services off, L7), or the store could not be written: the request's
            // answer is that error; nothing waits for it any more.
            let failure: RPCError
            switch result {
            case .success(nil): return
            case .success(let refusal?): failure = refusal.rpcError
            case .failure(let error): failure = (error as? RPCError) ?? .internalError("\(error)")
            }
            answerAuthorization(token, .failure(failure))
        }
        return .deferred
    }
}

/// Who asked for a write: an app's own request is held to its uid's limits (docs/security.md);
/// the control side, playing the user and the system, is not.
enum WriteOrigin {
    case app
    case control
}
