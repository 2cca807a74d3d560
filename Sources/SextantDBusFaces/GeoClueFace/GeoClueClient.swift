import SextantCore
import SextantDBus
import SextantHub
import SextantProtocol

/// One GeoClue client object, confined to the hub's loop except for its `DBusObject`: what
/// its owner set (desktop id, level, thresholds), whether it is active, its app session
/// once started, and the `Location` objects it was given. As its session's `SessionOutput`
/// it turns the hub's decisions into GeoClue's signals and properties.
final class GeoClueClient {
    let number: UInt32
    /// The unique bus name that made it: the only peer that may use it.
    let owner: String
    let credentials: DBusPeerCredentials
    let object: DBusObject
    private unowned let service: GeoClueFace

    var desktopID = ""
    /// As the owner wrote it; settled at `Start` (GeoClue's default: CITY).
    var requestedLevel = GeoClueAccuracyLevel.city.rawValue
    var thresholds = GeoClueThresholds()
    /// The level settled at the last `Start`.
    var level = GeoClueAccuracyLevel.city
    /// The app session, from the first `Start` until the client is freed.
    var session: AppSession?
    private(set) var isActive = false
    /// Stopped by the rules (a revoke, Location Services off), not by its owner: started
    /// again when the rules allow, as GeoClue restarts a client its agent stopped.
    var stoppedByRules = false
    /// A `Start` waiting for its authorization: its token, to forget it if the client goes.
    var pendingStart: RequestToken?
    private var locations = GeoClueLocationObjects()

    init(number: UInt32, owner: String, credentials: DBusPeerCredentials, face: GeoClueFace) {
        self.number = number
        self.owner = owner
        self.credentials = credentials
        self.service = face
        object = DBusObject(path: GeoClueObjectPath.client(number), interfaces: [GeoClueInterfaces.client(face, owner: owner)], owner: owner)
        let name = GeoClueInterfaces.clientName
        object.set(name, "Location", .objectPath(GeoClueObjectPath.none))
        object.set(name, "DistanceThreshold", .uint32(0))
        object.set(name, "TimeThreshold", .uint32(0))
        object.set(name, "DesktopId", .string(""))
        object.set(name, "RequestedAccuracyLevel", .uint32(requestedLevel))
        object.set(name, "Active", .bool(false))
    }

    func setActive(_ active: Bool) {
        isActive = active
        object.set(GeoClueInterfaces.clientName, "Active", .bool(active))
    }

    /// A location the rules let this client have, as the hub decided and reduced it: a new
    /// `Location` object and `LocationUpdated`, or, below a threshold, the current object's
    /// values changed in place (GeoClue 2.6).
    func receive(_ fix: LocationFix) {
        guard isActive, let connection = service.connection else { return }
        let values = GeoClueLocationValues(fix) { service.compassHeading(for: session, at: fix) }
        let now = service.hub.clock.monotonicNanoseconds()
        if case .updateInPlace = thresholds.offer(fix), let current = locations.current {
            current.replaceValues(GeoClueInterfaces.locationName, GeoClueInterfaces.properties(values))
            connection.emitPropertiesChanged(current.path, GeoClueInterfaces.locationName, changed: GeoClueInterfaces.properties(values), to: owner)
            return
        }
        let path = GeoClueObjectPath.location(client: number, index: locations.nextIndex)
        let location = DBusObject(path: path, interfaces: [GeoClueInterfaces.location], owner: owner)
        for (name, value) in GeoClueInterfaces.properties(values) { location.set(GeoClueInterfaces.locationName, name, value) }
        connection.export(location)
        let (old, withdrawn) = locations.add(location, now: now)
        for gone in withdrawn { connection.unexport(gone) }
        object.set(GeoClueInterfaces.clientName, "Location", .objectPath(path))
        connection.emitSignal(object.path, GeoClueInterfaces.clientName, "LocationUpdated", [.objectPath(old ?? GeoClueObjectPath.none), .objectPath(path)], to: owner)
    }

    /// Stopped by the rules: the locations it was given go with the right to them (RULES
    /// L9), and `Location` is "/" again.
    func withdrawLocations() {
        for path in locations.removeAll() { service.connection?.unexport(path) }
        object.set(GeoClueInterfaces.clientName, "Location", .objectPath(GeoClueObjectPath.none))
    }

    /// The client is freed: its objects leave the bus; a waiting `Start` is forgotten.
    func release() {
        if let token = pendingStart { service.hub.forgetAuthorizationRequest(token) }
        pendingStart = nil
        if let session { service.hub.stopLocationStream(session) }
        isActive = false
        for path in locations.removeAll() { service.connection?.unexport(path) }
        service.connection?.unexport(object.path)
    }
}

extension GeoClueClient: SessionOutput {
    /// GeoClue speaks the kinds conformed to ``GeoClueEncodable``; it has no signal for the others.
    func deliver(_ event: any AppEventKind) {
        (event as? any GeoClueEncodable)?.deliver(to: self)
    }

    func rightsMayHaveChanged() { service.rightsMayHaveChanged(self) }

    /// The hub calls this the moment the rules stop delivery (a revoke, the switch, the
    /// background): the client stops at once.
    func discardQueuedLocations() { service.rightsMayHaveChanged(self) }

    var peer: PeerCredentials? {
        guard let pid = credentials.pid, let pid = Int32(exactly: pid) else { return nil }
        return PeerCredentials(pid: pid, uid: credentials.uid, gid: UInt32.max)  // (gid_t)-1: the bus does not say
    }

    var face: String { "geoclue" }
}

/// A client's `Location` objects: the current one, the one before it (a client reading the
/// old path of `LocationUpdated` finds it), and those replaced less than 5 s ago, at most
/// 16, as GeoClue keeps a replaced location 5 s before it frees it.
struct GeoClueLocationObjects {
    static let keptFor: Int64 = 5_000_000_000
    static let keptAtMost = 16

    private(set) var current: DBusObject?
    private var previous: DBusObject?
    private var retired: [(path: String, since: Int64)] = []
    private(set) var nextIndex: UInt32 = 0

    /// Adds the new current location; returns the old current path and the paths to withdraw.
    mutating func add(_ location: DBusObject, now: Int64) -> (old: String?, withdrawn: [String]) {
        let old = current?.path
        if let previous { retired.append((previous.path, now)) }
        previous = current
        current = location
        nextIndex = nextIndex == UInt32.max ? 0 : nextIndex + 1
        var withdrawn: [String] = []
        while let first = retired.first, now - first.since >= Self.keptFor || retired.count > Self.keptAtMost {
            withdrawn.append(first.path)
            retired.removeFirst()
        }
        return (old, withdrawn)
    }

    mutating func removeAll() -> [String] {
        defer { self = GeoClueLocationObjects(nextIndex: nextIndex) }
        return [current?.path, previous?.path].compactMap { $0 } + retired.map(\.path)
    }

    private init(nextIndex: UInt32) { self.nextIndex = nextIndex }
    init() {}
}
