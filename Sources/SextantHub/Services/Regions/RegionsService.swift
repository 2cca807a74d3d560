import NIOCore
import SextantCore
import SextantProtocol
import SextantStore

/// Regions (RULES R1–R11): each decided fix is judged against every app's regions, and
/// what it decides goes to the app's sessions under the authorization rules. The regions
/// are the app's, not a session's: every session of an app with regions hears them.
final class RegionsService: PhoneService {
    static var appMethods: [any RPCMethod.Type] {
        [
        RegionMonitorMethod.self, RegionStopMethod.self, RegionListMethod.self, RegionStateMethod.self,
        ]
    }
    static var controlMethods: [any RPCMethod.Type] { [RegionsListMethod.self, RegionsAddMethod.self, RegionsRemoveMethod.self] }

    /// Every session of an app with regions hears them: they are the app's.
    static var heardByEverySession: [AppTopic] { [.region] }

    private unowned let hub: Hub
    /// The sessions told that region monitoring stopped being available (R10), until full
    /// accuracy returns.
    private var toldUnavailable: Set<SessionID> = []
    /// Every app's regions and what the fixes decided of them (RULES R1–R9).
    let regions: RegionMonitoring

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        regions = RegionMonitoring(maxRegionsPerApp: hub.configuration.services.maxRegionsPerApp, stored: stored.regions)
    }

    /// Fixes are judged only while some app monitors a region.
    var wantsFixes: Bool { regions.monitor.count > 0 }

    func sessionClosed(_ session: AppSession) { toldUnavailable.remove(session.id) }

    /// A region is stored (R12): the app's id stays bound to its uid.
    func holdsStored(_ app: String) -> Bool { regions.hasRegions(app) }

    var statusMembers: [String: JSONValue] {
        ["regions": ["count": .int(Int64(regions.monitor.count)), "apps": .int(Int64(regions.monitor.appsMonitoring.count))]]
    }

    /// After the fix's own delivery was begun: a session owed the fix gets it before any
    /// `region` event (``Hub/publish(to:_:)`` settles it first).
    func fixDecided(_ fix: LocationFix) {
        let transitions = regions.evaluate(fix)
        guard !transitions.isEmpty else { return }
        var sessionsByApp: [String: [AppSession]] = [:]
        for session in hub.sessions.ordered where regions.hasRegions(session.app) { sessionsByApp[session.app, default: []].append(session) }
        for transition in transitions {
            let event = RegionTransitionEvent(transition: transition)
            let reached = sessionsByApp[transition.app] ?? []
            for session in reached { hub.publish(to: session, event) }
            // Watchers see it even while none of the app's sessions is open.
            if reached.isEmpty { hub.broadcastToWatchers(event.method, event.params, app: transition.app, kind: .essential) }
        }
    }

    /// A region's state as the session may hear it: `unknown` unless it may have
    /// full-accuracy locations now (R10); nil when the app monitors no such region.
    func revealedState(of identifier: String, for session: AppSession) -> RegionState? {
        guard let state = regions.monitor.state(of: identifier, for: session.app) else { return nil }
        return hub.decidedAccuracy(of: session) == .full ? state : .unknown
    }

    /// Whether the session may monitor regions now: Location Services on (1002, L7), the
    /// app authorized (1001), at full accuracy (1012, R10).
    func checkRegionMonitoring(_ session: AppSession) throws(RPCError) {
        try hub.checkLocationAccess(session)
        guard hub.authorization.authorization(of: session.id).accuracy == .full else {
            throw RPCError(.regionMonitoringUnavailable, "region monitoring needs full accuracy; this app is authorized for reduced accuracy")
        }
    }

    /// An app's authorization changed (R10): when its accuracy became reduced while it has
    /// regions, its sessions are told once that monitoring stopped.
    func authorizationChanged(_ session: AppSession, _ snapshot: AuthorizationSnapshot) {
        let unavailable = snapshot.status.isAuthorized && snapshot.accuracy == .reduced && regions.hasRegions(session.app)
        defer { if unavailable { toldUnavailable.insert(session.id) } else { toldUnavailable.remove(session.id) } }
        guard unavailable, !toldUnavailable.contains(session.id) else { return }
        hub.publish(to: session, RegionUnavailableEvent(reason: "reduced accuracy: region monitoring needs full accuracy"))
    }

    /// Monitors a region for an app (R8) and stores it (R12): the future completes once it is
    /// on disk. A failed write puts back what was there and fails with -32603. An app's own
    /// region counts against its uid's limit too (docs/security.md); the control side's does
    /// not stop at it.
    func monitorRegion(_ region: CircularRegion, for app: String, from origin: WriteOrigin) throws(RPCError) -> EventLoopFuture<Void> {
        if origin == .app { try checkRegionsOfUID(adding: region, for: app) }
        let replaced: CircularRegion?
        do throws(RegionRefusal) { replaced = try regions.monitor(region, for: app) } catch { throw error.rpcError }
        return hub.write([.region(app: app, region)], from: origin).assumeIsolated().flatMapErrorThrowing { [self] error in
            regions.undoMonitor(region, replacing: replaced, for: app)
            throw error
        }.nonisolated()
    }

    /// A new region of an app whose uid (other than root and the daemon's own) monitors as
    /// many regions as it may, all its apps together, is refused with 1011: a uid that makes
    /// app ids cannot multiply the per-app limit.
    private func checkRegionsOfUID(adding region: CircularRegion, for app: String) throws(RPCError) {
        guard let uid = hub.stored.owners.owner(of: app), hub.isLimited(uid), regions.monitor.state(of: region.identifier, for: app) == nil else { return }
        let limit = hub.configuration.services.maxRegionsPerUID
        let held = hub.stored.owners.apps(of: uid).reduce(0) { $0 + regions.monitor.count(of: $1) }
        guard held >= limit else { return }
        throw RPCError(
            .tooManyRegions, "the apps of uid \(uid) monitor \(held) regions, at most \(limit) in all; stop one first (region.stop)",
            data: ["uid": .int(Int64(uid)), "limit": .int(Int64(limit))])
    }

    /// Stops monitoring an app's region and forgets it on disk: true once removed, false
    /// when there was none.
    func stopRegion(_ identifier: String, for app: String) -> EventLoopFuture<Bool> {
        guard regions.stop(identifier, for: app) else { return hub.eventLoop.makeSucceededFuture(false) }
        return hub.write([.regionRemoved(app: app, identifier: identifier)]).map { true }
    }
}

/// One of the app's regions was entered, left or dwelt in, or its first state decided
/// (RULES R1–R7): location-derived, and for full accuracy only (R10). No coordinates.
struct RegionTransitionEvent: AppEventKind {
    let transition: RegionTransition
    static var topic: AppTopic { .region }
    static var isLocationDerived: Bool { true }
    static var needsAlwaysInBackground: Bool { true }
    static var needsFullAccuracy: Bool { true }
    var outboundKind: OutboundKind { .locationDecision }
    var method: String { Event.region }
    var params: JSONValue { transition.wire.json }
}

/// Region monitoring stopped being available to the app (its accuracy became reduced,
/// R10): says nothing of where the device is.
struct RegionUnavailableEvent: AppEventKind {
    let reason: String
    static var topic: AppTopic { .region }
    var outboundKind: OutboundKind { .essential }
    var method: String { Event.regionUnavailable }
    var params: JSONValue { ["reason": .string(reason)] }
}
