import SextantCore
import SextantProtocol
import SextantStore

/// The posture of a foldable (RULES P1–P4): the engine decides from each hinge angle; a
/// change goes to the sessions that asked (`posture.start`); watchers see it when no app
/// hears it.
final class PostureService: PhoneService {
    static var appMethods: [any RPCMethod.Type] { [SubscriptionMethod<PostureStart>.self, SubscriptionMethod<PostureStop>.self] }
    static var consumedKinds: [SensorKind.ID] { [SensorKind.hinge.id] }

    private unowned let hub: Hub
    private var engine = PostureEngine()
    /// The last posture decided, for `hello` and `status`; nil before the first hinge sample.
    private var lastPosture: PostureChange?

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    /// `posture` in `hello` and `status`: the last decision, or null before the first hinge sample.
    var postureJSON: JSONValue { lastPosture?.json ?? .null }

    var statusMembers: [String: JSONValue] { ["posture": postureJSON] }

    /// One hinge angle its arbiter let through (P1–P4).
    func reading(_ sample: SensorReading, at time: Timestamp, from source: SourceName) {
        guard let angle = sample.hingeAngle else { return }
        let upright = hub.motion.judge.lastUprightOrientation
        guard let change = engine.judge(hingeAngle: angle, at: time, lastUprightDeviceOrientation: upright) else { return }
        lastPosture = change
        hub.logger.debug("posture", metadata: ["state": "\(change.state.rawValue)", "angle": "\(angle)"])
        let event = SharedEvent(PostureEvent(change: change))
        for session in hub.sessions.subscribers(of: .posture) {
            hub.publish(to: session, event)
        }
        if !hub.sessions.isHeard(.posture) {
            hub.broadcastToWatchers(Event.posture, change.json, kind: .sensor)
        }
    }
}

struct PostureEvent: AppEventKind {
    let change: PostureChange
    static var topic: AppTopic { .posture }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.posture }
    var params: JSONValue { change.json }
}

extension PostureChange {
    /// The `posture` event's params.
    var json: JSONValue {
        [
            "state": .string(state.rawValue), "previous": JSONValue(previous?.rawValue), "hingeAngle": .double(hingeAngle),
            "fold": .string(fold.rawValue), "time": .string(time.rfc3339),
        ]
    }
}

extension PostureStart: TopicSwitch {
    static var topic: AppTopic { .posture }
    static var on: Bool { true }
}

extension PostureStop: TopicSwitch {
    static var topic: AppTopic { .posture }
    static var on: Bool { false }
}
