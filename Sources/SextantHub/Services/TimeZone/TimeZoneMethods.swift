import SextantCore
import SextantProtocol

extension AppTopic {
    /// `timeZone.start`: the device's zone (RULES Z1–Z10), heard without location authorization (Z7).
    static let timeZone = AppTopic("timeZone")
}

/// The device's zone changed, or was set by hand (RULES Z2–Z9). Not location-derived (Z7):
/// the zone is system-wide and coarse, as every app on a phone reads it.
struct TimeZoneEvent: AppEventKind {
    let zone: WireTimeZone
    static var topic: AppTopic { .timeZone }
    var outboundKind: OutboundKind { .essential }
    var method: String { Event.timeZone }
    var params: JSONValue { zone.json }
}

/// `timeZone.get`: the zone now, for any session (Z7).
struct TimeZoneGetMethod: RPCMethod {
    static var name: String { Method.timeZoneGet }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) { _ = try TimeZoneGet(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .result(call.hub.services(TimeZoneService.self).current().json)
    }
}

/// `timeZone.start`: the session hears `timeZone` events from now on (the follower starts
/// if it is the first listener: Z10); the result is the zone now.
struct TimeZoneStartMethod: RPCMethod {
    static var name: String { Method.timeZoneStart }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) { _ = try TimeZoneStart(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.sessions.subscribe(call.session!, to: .timeZone)
        return .result(call.hub.services(TimeZoneService.self).current().json)
    }
}

/// `timeZone.stop`: no more `timeZone` events; the last listener gone, the follower stops (Z10).
struct TimeZoneStopMethod: RPCMethod {
    static var name: String { Method.timeZoneStop }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) { _ = try TimeZoneStop(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.sessions.unsubscribe(call.session!, from: .timeZone)
        let service = call.hub.services(TimeZoneService.self)
        if !service.isHeard { service.forgetFollowing() }
        return .result([:])
    }
}

/// `timeZone.set` (control): a zone by hand, or `null` for automatic (Z9); stored.
struct TimeZoneSetMethod: RPCMethod {
    static var name: String { Method.timeZoneSet }
    let zone: String?

    init(_ p: Params) throws(RPCError) { zone = try TimeZoneSet(p).zone }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(try call.hub.services(TimeZoneService.self).setManualZone(zone).map(\.json))
    }
}
