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
    fileprivate(set) var owners: [String: UInt32]
    /// The last decision change being committed: the next one waits for it.
    fileprivate(set) var decisionInFlight: EventLoopFuture<Void>?

    init(snapshot: StoreSnapshot) {
        fudgers = snapshot.fudgers
        owners = snapshot.owners
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
    /// with -32603 naming the store.
    func write(_ changes: [StoreChange]) -> EventLoopFuture<Void> {
        guard !changes.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        let promise = eventLoop.makePromise(of: Void.self)
        let logger = self.logger
        store.asyncWrite(changes) { result in
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
        _ change: @escaping (inout AuthorizationEngine) throws(RPCError) -> (Value, [AuthorizationEffect])
    ) throws(RPCError) -> EventLoopFuture<Value> {
        let future: EventLoopFuture<Value>
        if let previous = stored.decisionInFlight {
            future = previous.assumeIsolated().flatMap { [self] () -> EventLoopFuture<Value> in
                do throws(RPCError) { return try stageAndCommit(change) } catch { return eventLoop.makeFailedFuture(error) }
            }.nonisolated()
        } else {
            future = try stageAndCommit(change)
        }
        let done = future.assumeIsolated().map { _ in () }.recover { _ in () }.nonisolated()
        stored.decisionInFlight = done
        done.assumeIsolated().whenComplete { [self] _ in
            if stored.decisionInFlight === done { stored.decisionInFlight = nil }
        }
        return future
    }

    private func stageAndCommit<Value: Sendable>(
        _ change: @escaping (inout AuthorizationEngine) throws(RPCError) -> (Value, [AuthorizationEffect])
    ) throws(RPCError) -> EventLoopFuture<Value> {
        var staged = authorization
        let (stagedResult, stagedEffects) = try change(&staged)
        let written = stagedEffects.compactMap(Self.storeChange)
        guard !written.isEmpty else {
            applyDecision { $0 = staged }
            perform(stagedEffects)
            return eventLoop.makeSucceededFuture(stagedResult)
        }
        return write(written).assumeIsolated().flatMap { [self] in
            let outcome: Result<(Value, [AuthorizationEffect]), RPCError>
            do throws(RPCError) { outcome = .success(try applyDecision(change)) } catch { outcome = .failure(error) }
            let applied = (try? outcome.get().1) ?? []
            perform(applied.filter { Self.storeChange($0) == nil })
            let corrections = storeCorrections(written: written, applied: applied.compactMap(Self.storeChange))
            if !corrections.isEmpty {
                logger.notice("the store is brought in line with a decision changed during its write", metadata: ["changes": "\(corrections.count)"])
            }
            return write(corrections).flatMapResult { outcome.map(\.0) }
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
            case .gridOffset, .owner, .region, .regionRemoved: continue
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
            if let fix = location.lastFix {
                for session in sessions.ordered where session.app == app {
                    // A session still owed the newest fix gets it now, once.
                    if !settleOwedLocation(session) { deliverLocation(fix, to: session) }
                }
            }
        }
        return nil
    }
}

// MARK: - App ids and their owners

extension Hub {
    /// `hello`'s check of who says an app id (docs/security.md): an app id belongs to the
    /// uid that first said it, and is refused to every other uid with 1009 until
    /// `sextantctl permissions unbind` frees it. A first claim is committed before the
    /// session opens, so that a restart cannot hand the id to the next uid that asks.
    func claimAppID(_ app: String, by peer: any RPCPeer, then open: @escaping () throws(RPCError) -> JSONValue) throws(RPCError) -> Reply {
        guard let uid = peer.credentials?.uid else { throw .internalError("the peer's uid is not known") }
        return try claimAppID(app, uid: uid, then: open)
    }

    /// The same for a client of any face whose uid the face knows (the gpsd face reads it
    /// from /proc).
    func claimAppID(_ app: String, uid: UInt32, then open: @escaping () throws(RPCError) -> JSONValue) throws(RPCError) -> Reply {
        if let owner = stored.owners[app] ?? Self.ownerByName(of: app), owner != uid {
            logger.warning("hello refused: the app id belongs to another uid", metadata: ["app": "\(app)", "owner": "\(owner)", "uid": "\(uid)"])
            throw RPCError(
                .wrongUser, "app id \"\(app)\" belongs to uid \(owner); this client is uid \(uid)",
                data: ["app": .string(app), "owner": .int(Int64(owner)), "uid": .int(Int64(uid))])
        }
        if stored.owners[app] != nil { return .result(try open()) }
        // Taken at once, so that another uid's hello during the write is refused too.
        stored.owners[app] = uid
        logger.info("app id bound to its first uid", metadata: ["app": "\(app)", "uid": "\(uid)"])
        let opened = write([.owner(app: app, uid: uid)]).assumeIsolated().flatMapError { [self] error in
            if stored.owners[app] == uid { stored.owners[app] = nil }
            return eventLoop.makeFailedFuture(error)
        }.flatMapThrowing { () throws -> JSONValue in
            do throws(RPCError) { return try open() } catch { throw error }
        }
        return .later(opened.nonisolated())
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
    func ownerEntries() -> [JSONValue] {
        stored.owners.keys.sorted().map { ["app": .string($0), "uid": .int(Int64(stored.owners[$0]!))] }
    }

    /// `permissions.unbind`: the app id is free for the next uid that says it. Live sessions
    /// keep running; the previous uid is returned (null if it was not bound).
    func unbindAppID(_ app: String) -> EventLoopFuture<JSONValue> {
        guard let previous = stored.owners[app] else { return eventLoop.makeSucceededFuture(["app": .string(app), "uid": .null]) }
        return write([.owner(app: app, uid: nil)]).assumeIsolated().map { [self] () -> JSONValue in
            // Written first: a failed write leaves the binding as it was.
            if stored.owners[app] == previous { stored.owners[app] = nil }
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
    func requestAuthorization(_ session: SessionID, level: AuthorizationLevel, token: RequestToken) -> Reply {
        let time = now
        let committed: EventLoopFuture<AuthorizationRefusal?>
        do throws(RPCError) {
            committed = try commitDecision { engine in
                let outcome = engine.request(session, level: level, token: token, at: time)
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
