import SextantCore
import SextantProtocol
import SextantStore

/// One of the phone's services (motion, the sky, heading, regions...) as the hub routes to
/// it. A service is a folder of its own: this type, its methods, its events and the
/// subscription state of the sessions that asked for it; its decisions come from a pure
/// engine in `SextantCore`. It is listed once, in ``ServiceRegistry``, and the hub knows it
/// only through these requirements: it names no service.
///
/// A service is called only for what it asked for: the readings of the sensor kinds and the
/// records of the record kinds it consumes, and each decided fix only while ``wantsFixes``
/// (someone hears what it decides from them), so that a service nobody hears costs nothing
/// per sample.
protocol PhoneService: AnyObject {
    /// Made once, with the hub it serves (held `unowned`: the hub owns its services) and
    /// what the store held at start.
    init(hub: Hub, stored: StoreSnapshot)
    /// Whether the phone `platform` has this service: a service of one platform's only is
    /// not made on the other, so that it costs that phone nothing, not even a look per fix.
    static func serves(_ platform: DevicePlatform) -> Bool
    /// Its methods on app.sock and on control.sock.
    static var appMethods: [any RPCMethod.Type] { get }
    static var controlMethods: [any RPCMethod.Type] { get }
    /// The topics of its events that every session hears without asking (none: a session
    /// hears what it subscribed to).
    static var heardByEverySession: [AppTopic] { get }
    /// The sensor kinds whose readings it judges once their arbiter let them through.
    static var consumedKinds: [SensorKind.ID] { get }
    /// A reading of one of ``consumedKinds``, in the order the sources gave them.
    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName)
    /// A value of one of its kinds held by hand was let go of (O4a).
    func releasedByHand(_ kind: SensorKind.ID)
    /// The record kinds whose records it hears (`RecordKind.sky`).
    static var consumedRecords: [RecordKind] { get }
    /// A record of one of ``consumedRecords`` a source gave (a trace's `sky`, GnssLogger
    /// `Status`, NMEA `GSV`), in the order the sources gave them.
    func recordSampled(_ record: SampleRecord, at time: Timestamp, from source: SourceName)
    /// A fix as its source gave it, before the GNSS profile and the rules (the sky made up
    /// beside it), called only while ``wantsFixes``.
    func fixSampled(_ truth: LocationFix, from source: SourceName)
    /// A fix the rules decided, after its delivery to the sessions began, called when
    /// ``wantsFixes`` said so as the same fix was sampled (it is asked once a fix).
    func fixDecided(_ fix: LocationFix)
    /// Whether anything (a session, a face, a watcher) hears what it decides from fixes now.
    var wantsFixes: Bool { get }
    /// The session ended: its subscription goes with it.
    func sessionClosed(_ session: AppSession)
    /// The session's authorization changed (its `authorization` event is queued).
    func authorizationChanged(_ session: AppSession, _ snapshot: AuthorizationSnapshot)
    /// Something a session's access to locations reads changed: a session's app state,
    /// authorization or stream, a prompt opened or closed, the GPS source lost or back.
    func conditionsChanged()
    /// Whether the store holds something of the app for this service (its id stays bound).
    func holdsStored(_ app: String) -> Bool
    /// Its members of `status`, the same object `hello` and the panel read.
    var statusMembers: [String: JSONValue] { get }
    /// Its members of the session's `apps.list` entry (the watchers' `session` event).
    func appEntryMembers(_ session: AppSession) -> [String: JSONValue]
}

extension PhoneService {
    static func serves(_ platform: DevicePlatform) -> Bool { true }
    static var appMethods: [any RPCMethod.Type] { [] }
    static var controlMethods: [any RPCMethod.Type] { [] }
    static var heardByEverySession: [AppTopic] { [] }
    static var consumedKinds: [SensorKind.ID] { [] }
    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {}
    func releasedByHand(_ kind: SensorKind.ID) {}
    static var consumedRecords: [RecordKind] { [] }
    func recordSampled(_ record: SampleRecord, at time: Timestamp, from source: SourceName) {}
    func fixSampled(_ truth: LocationFix, from source: SourceName) {}
    func fixDecided(_ fix: LocationFix) {}
    var wantsFixes: Bool { false }
    func sessionClosed(_ session: AppSession) {}
    func authorizationChanged(_ session: AppSession, _ snapshot: AuthorizationSnapshot) {}
    func conditionsChanged() {}
    func holdsStored(_ app: String) -> Bool { false }
    var statusMembers: [String: JSONValue] { [:] }
    func appEntryMembers(_ session: AppSession) -> [String: JSONValue] { [:] }
}

/// The hub's services, made from ``ServiceRegistry/all``, with what routes to each: the
/// consumers of each sensor kind, of each record kind and of fixes, in the registry's order.
final class Services {
    let all: [any PhoneService]
    private let byKind: [SensorKind.ID: [any PhoneService]]
    private let byRecordKind: [RecordKind: [any PhoneService]]
    /// Who decides every location a session is handed: the platform's own provider when
    /// the phone has one, else the iOS stream (``LocationService``).
    let locationProvider: any LocationProvider
    /// Where each fix goes (the location service's fan-out to the sessions, its latest fix
    /// and the GPS source's loss): a concrete type, as every fix and every event the hub
    /// publishes passes it (``LocationDelivery``).
    let fixes: LocationDelivery
    /// What each session holds for it (`AppSession.fixes`).
    typealias SessionSlot = LocationSubscription
    /// The services that wanted the fix being decided (``fixDecided(_:)``).
    private var fixHearers: [any PhoneService] = []

    init(hub: Hub, stored: StoreSnapshot, registry: [any PhoneService.Type] = ServiceRegistry.all) {
        all = registry.filter { $0.serves(hub.configuration.platform) }.map { $0.init(hub: hub, stored: stored) }
        var byKind: [SensorKind.ID: [any PhoneService]] = [:]
        var byRecordKind: [RecordKind: [any PhoneService]] = [:]
        for service in all {
            for kind in type(of: service).consumedKinds { byKind[kind, default: []].append(service) }
            for kind in type(of: service).consumedRecords { byRecordKind[kind, default: []].append(service) }
        }
        self.byKind = byKind
        self.byRecordKind = byRecordKind
        let platformProvider = all.lazy.compactMap { $0 as? any PlatformLocationProvider }.first
        // A registry without the location service (a test's own) still has the default's rules.
        locationProvider = platformProvider ?? all.lazy.compactMap { $0 as? LocationService }.first ?? LocationService(hub: hub, stored: stored)
        fixes = LocationDelivery(hub: hub, answersOnce: platformProvider == nil)
    }

    /// The service of type `S` (the registry lists each once).
    func callAsFunction<S: PhoneService>(_ type: S.Type) -> S {
        for service in all { if let match = service as? S { return match } }
        preconditionFailure("\(S.self) is not in ServiceRegistry.all")
    }

    /// The service of type `S` when the platform has it (``PhoneService/serves(_:)``).
    func ifServed<S: PhoneService>(_ type: S.Type) -> S? {
        for service in all { if let match = service as? S { return match } }
        return nil
    }

    /// Whether some service judges readings of `kind` (others are recorded, not judged).
    func consumes(_ kind: SensorKind.ID) -> Bool { byKind[kind] != nil }

    func route(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        guard let consumers = byKind[reading.kind] else { return }
        for service in consumers { service.reading(reading, at: time, from: source) }
    }

    func route(_ record: SampleRecord, at time: Timestamp, from source: SourceName) {
        guard let consumers = byRecordKind[record.kind] else { return }
        for service in consumers { service.recordSampled(record, at: time, from: source) }
    }

    func fixSampled(_ truth: LocationFix, from source: SourceName) {
        fixHearers.removeAll(keepingCapacity: true)
        for service in all where service.wantsFixes {
            fixHearers.append(service)
            service.fixSampled(truth, from: source)
        }
    }

    /// To the services that wanted the same fix as sampled (``fixSampled(_:from:)`` is
    /// called first for every fix): ``PhoneService/wantsFixes`` is asked once a fix.
    func fixDecided(_ fix: LocationFix) {
        for service in fixHearers { service.fixDecided(fix) }
    }

    /// A session opened: owed no fix decided before it came.
    func sessionOpened(_ session: AppSession) { fixes.opened(session) }

    func sessionClosed(_ session: AppSession) {
        fixes.closed(session)
        for service in all { service.sessionClosed(session) }
    }

    func authorizationChanged(_ session: AppSession, _ snapshot: AuthorizationSnapshot) {
        for service in all { service.authorizationChanged(session, snapshot) }
    }

    func conditionsChanged() {
        for service in all { service.conditionsChanged() }
    }

    func releasedByHand(_ kind: SensorKind.ID) {
        for service in all { service.releasedByHand(kind) }
    }

    func holdsStored(_ app: String) -> Bool { all.contains { $0.holdsStored(app) } }

    /// Every app method and every control method the services serve.
    var appMethods: [any RPCMethod.Type] { all.flatMap { type(of: $0).appMethods } }
    var controlMethods: [any RPCMethod.Type] { all.flatMap { type(of: $0).controlMethods } }

    /// Every service's members of the session's `apps.list` entry.
    func appEntryMembers(_ session: AppSession) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for service in all { members.merge(service.appEntryMembers(session)) { first, _ in first } }
        return members
    }

    /// Every service's `status` members.
    var statusMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for service in all { members.merge(service.statusMembers) { first, _ in first } }
        return members
    }
}

/// The subscription state of the sessions that asked for one service, in id order (the
/// order events go out in): a sample reaches these, not every session. A state is an
/// object, changed in place while the table is walked: a delivery may end a session (a
/// client too far behind), and the walk goes on over the entries as they were.
struct Subscribers<State: AnyObject> {
    private(set) var entries: [(session: AppSession, state: State)] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    subscript(session: AppSession) -> State? {
        guard let index = position(of: session) else { return nil }
        return entries[index].state
    }

    /// Adds `session` with `state`, or replaces its state (a second `start`).
    mutating func set(_ session: AppSession, _ state: State) {
        if let index = position(of: session) {
            entries[index].state = state
        } else {
            entries.insert((session, state), at: entries.partitioningIndex { $0.session.id > session.id })
        }
    }

    @discardableResult
    mutating func remove(_ session: AppSession) -> State? {
        guard let index = position(of: session) else { return nil }
        return entries.remove(at: index).state
    }

    private func position(of session: AppSession) -> Int? {
        let index = entries.partitioningIndex { $0.session.id >= session.id }
        return index < entries.count && entries[index].session === session ? index : nil
    }
}
