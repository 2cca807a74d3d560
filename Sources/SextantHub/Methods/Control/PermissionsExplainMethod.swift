import SextantCore
import SextantProtocol

/// `permissions.explain`: the authorization engine's whole view of one app, on the wire
/// (docs/platforms.md). Timers are said in the device's wall time and seconds from now, as a
/// tester compares them with `sextantctl time`.
struct PermissionsExplainMethod: RPCMethod {
    static let name = Method.permissionsExplain
    let app: String

    init(_ p: Params) throws(RPCError) { app = try PermissionsExplain(p).app }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let now = hub.now
        let explanation = hub.authorization.explanation(of: app, at: now)
        var members: [String: JSONValue] = [
            "app": .string(app), "platform": explanation.platform.json, "status": .string(explanation.status.rawValue),
            "accuracy": .string(explanation.accuracy.rawValue), "servicesEnabled": .bool(explanation.servicesEnabled),
            "stored": explanation.stored.map { $0.json(app: app) } ?? .null,
            "sessions": .array(explanation.sessions.map { Self.json($0, now: now) }),
            "facets": .object(explanation.facets),
            "timers": .array(explanation.timers.map { Self.json($0, now: now) }),
            "prompts": .array(explanation.prompts.map(\.json)),
        ]
        members["uid"] = hub.stored.owners[app].map { .int(Int64($0)) } ?? .null
        members["motion"] = Self.json(explanation.motion, platform: explanation.platform)
        return .result(.object(members))
    }

    /// The motion permission (A11–A15): its platform's name, the status, and on Android the
    /// dialog's denials in a row and whether they are "don't ask again".
    private static func json(_ motion: PermissionExplanation.MotionFacts, platform: DevicePlatform) -> JSONValue {
        var members: [String: JSONValue] = [
            "permission": .string(platform.androidAPI == nil ? "Motion & Fitness" : "ACTIVITY_RECOGNITION"),
            "status": .string(motion.status.rawValue),
        ]
        if let denials = motion.denials {
            members["denials"] = .int(Int64(denials))
            members["dontAskAgain"] = .bool(motion.dontAskAgain)
        }
        return .object(members)
    }

    private static func json(_ session: PermissionExplanation.SessionFacets, now: EngineTime) -> JSONValue {
        [
            "session": .int(Int64(session.session)), "state": .string(session.state.rawValue),
            "backgroundFor": session.backgroundSince.map { .double(seconds(now.monotonic - $0)) } ?? .null,
            "allowOnce": JSONValue(session.allowOnce?.rawValue), "prompted": .bool(session.prompted),
            "heldByControl": .bool(session.heldByControl), "waitingRequests": .int(Int64(session.waitingRequests)),
        ]
    }

    private static func json(_ timer: PermissionExplanation.RunningTimer, now: EngineTime) -> JSONValue {
        let remaining = timer.firesAt - now.monotonic
        return [
            "name": .string(timer.name), "session": timer.session.map { .int(Int64($0)) } ?? .null,
            "firesAt": .string(Timestamp(nanoseconds: now.wall.nanoseconds &+ remaining).rfc3339),
            "inSeconds": .double(seconds(remaining)),
        ]
    }

    /// Seconds to the millisecond, as `status` says its uptime.
    private static func seconds(_ nanoseconds: Int64) -> Double { (Double(nanoseconds) / 1e6).rounded() / 1e3 }
}
