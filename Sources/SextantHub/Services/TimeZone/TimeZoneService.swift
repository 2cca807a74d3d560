import NIOCore
import SextantCore
import SextantProtocol
import SextantStore

/// The device's time zone (RULES Z1–Z10): one `ZoneFollower` for the device, judging the
/// decided fixes while anyone listens — a session that called `timeZone.start`, or a watcher
/// of `timeZone` events — and beginning afresh when the first listener comes (Z10), as visits
/// do (V6). A zone set by hand wins while it is set (Z9). The zone is not location-derived
/// for the rules (Z7): every session may hear it, as every app reads the phone's zone.
final class TimeZoneService: PhoneService {
    static var appMethods: [any RPCMethod.Type] { [TimeZoneGetMethod.self, TimeZoneStartMethod.self, TimeZoneStopMethod.self] }
    static var controlMethods: [any RPCMethod.Type] { [TimeZoneSetMethod.self] }

    private unowned let hub: Hub
    let settings: TimeZoneSettings
    /// The zone set by hand (Z9), as stored; nil: the zone follows the position.
    private(set) var manualZone: String?
    /// The engine while someone listens; nil while nobody does (Z10).
    private var follower: ZoneFollower?
    /// What the listeners were last told, nil since nobody listened.
    private(set) var told: WireTimeZone?
    /// The follower's last decision.
    private var decided: WireTimeZone?
    /// Whether any of the three above holds something, so that a fix nobody hears checks
    /// one flag rather than clearing them.
    private var holdsState = false
    /// Whether there is a table (read once: `settings.table` is a large value).
    private let hasTable: Bool

    private let listeners: Listeners

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        listeners = hub.listeners
        settings = hub.configuration.services.timeZone
        hasTable = settings.table != nil
        manualZone = stored.timeZoneOverride
    }

    /// Whether the engine runs (someone listens and a fix came since): Z10's cost rule.
    var isFollowing: Bool { follower != nil }

    var isHeard: Bool { listeners.hear(.timeZone) || listeners.admit(&watched) }
    /// Whether a watcher takes the zone, asked on every fix.
    private var watched = WatcherInterest(Event.timeZone)

    /// Without a table and a zone set by hand, no fix can decide anything.
    var wantsFixes: Bool {
        guard hasTable || manualZone != nil else { return false }
        let heard = isHeard
        if !heard, holdsState { forgetFollowing() }
        return heard
    }

    /// Nobody listens: the next listener starts afresh (Z10).
    func forgetFollowing() {
        follower = nil
        told = nil
        decided = nil
        holdsState = false
    }

    func fixDecided(_ fix: LocationFix) {
        guard hub.authorization.servicesEnabled else { return }  // Z8
        if let manualZone {
            let now = zone(manualZone, at: fix.time, automatic: false)
            guard let told else { return announce(now, previous: nil, reason: .manual) }
            if told.zone != manualZone || told.utcOffset != now.utcOffset || told.isDST != now.isDST {
                announce(now, previous: told.zone, reason: .offsetChanged)
            }
            return
        }
        guard let decision = follow(fix) else { return }
        announce(decision, previous: decision.previous ?? told?.zone, reason: decision.reason ?? .first)
    }

    /// The follower's decision on `fix`, if any (the follower made afresh if nobody listened).
    private func follow(_ fix: LocationFix) -> WireTimeZone? {
        guard let table = settings.table else { return nil }
        if follower == nil { follower = ZoneFollower(table: table, rules: settings.rules) }
        holdsState = true
        guard let decision = follower?.observe(fix) else { return nil }
        let wire = Self.wire(decision)
        decided = wire
        return wire
    }

    func sessionClosed(_ session: AppSession) {
        if !isHeard { forgetFollowing() }
    }

    // MARK: - What the zone is now

    /// The zone now: the one set by hand; the one the follower decided; else, nobody
    /// listening, the table's zone at the last fix (one lookup, no hysteresis: Z10).
    func current() -> WireTimeZone {
        let lastFix = hub.services.fixes.lastFix
        if let manualZone { return zone(manualZone, at: lastFix?.time ?? hub.now.wall, automatic: false) }
        if let decided { return decided.asAnswer }
        guard let table = settings.table, let fix = lastFix,
              let here = table.zone(latitude: fix.latitude, longitude: fix.longitude) else { return WireTimeZone(zone: nil, automatic: true) }
        return zone(here, at: fix.time, automatic: true)
    }

    private func zone(_ zone: String, at time: Timestamp, automatic: Bool) -> WireTimeZone {
        let offset = settings.rules.offset(zone: zone, at: time) ?? NauticalZone.offset(of: zone)
        return WireTimeZone(zone: zone, utcOffset: offset?.seconds, isDST: offset?.isDaylightSaving, time: time, automatic: automatic)
    }

    private static func wire(_ decision: ZoneDecision) -> WireTimeZone {
        WireTimeZone(
            zone: decision.zone, previous: decision.previousZone, utcOffset: decision.offset?.seconds, isDST: decision.offset?.isDaylightSaving,
            time: decision.time, automatic: true, reason: TimeZoneReason(decision.reason))
    }

    // MARK: - Set by hand (Z9)

    /// `timeZone.set`: stored first, then in force and told (`kill -9` loses no answered change).
    func setManualZone(_ zone: String?) throws(RPCError) -> EventLoopFuture<WireTimeZone> {
        if let zone, !settings.rules.knows(zone) {
            throw .invalidParams("unknown zone \"\(zone)\": not in the system's tzdata (/usr/share/zoneinfo)")
        }
        return hub.write([.timeZoneOverride(zone)], from: .control).assumeIsolated().map { [self] () -> WireTimeZone in
            let before = told?.zone ?? current().zone
            manualZone = zone
            follower = nil
            decided = nil
            guard isHeard else { return current() }
            // Back to automatic: judged at once at the last fix, as a phone does when "Set
            // Automatically" is turned on again.
            if zone == nil, hub.authorization.servicesEnabled, let fix = hub.services.fixes.lastFix { _ = follow(fix) }
            let now = current()
            if told?.zone != now.zone || told?.automatic != now.automatic {
                announce(now, previous: before, reason: zone == nil ? .automatic : .manual)
            }
            return now
        }.nonisolated()
    }

    private func announce(_ zone: WireTimeZone, previous: String?, reason: TimeZoneReason) {
        var event = zone
        event.previous = previous
        event.reason = reason
        told = event
        holdsState = true
        hub.broadcastToWatchers(Event.timeZone, event.json, kind: .essential)
        let shared = SharedEvent(TimeZoneEvent(zone: event))
        for session in hub.sessions.subscribers(of: .timeZone) { hub.publish(to: session, shared) }
    }

    var statusMembers: [String: JSONValue] {
        var members = current().json.objectValue ?? [:]
        members["followed"] = .bool(isFollowing)
        if let table = settings.table, let path = settings.tablePath {
            members["table"] = [
                "path": .string(path), "dataVersion": .string(table.dataVersion), "zones": .int(Int64(table.zoneNames.count)),
                "bytes": .int(Int64(table.byteCount)),
            ]
        } else {
            members["table"] = .null
        }
        return ["timeZone": .object(members)]
    }
}

extension ZoneRules {
    /// Whether a zone id names a zone these rules (or the nautical ones) know.
    func knows(_ zone: String) -> Bool {
        NauticalZone.offset(of: zone) != nil || offset(zone: zone, at: Timestamp(nanoseconds: 0)) != nil
    }
}

extension TimeZoneReason {
    init(_ reason: ZoneDecision.Reason) {
        switch reason {
        case .first: self = .first
        case .zoneChanged: self = .zoneChanged
        case .offsetChanged: self = .offsetChanged
        }
    }
}

extension WireTimeZone {
    /// The zone as `timeZone.get` answers it: without an event's `previous` and `reason`.
    var asAnswer: WireTimeZone {
        var answer = self
        answer.previous = nil
        answer.reason = nil
        return answer
    }
}
