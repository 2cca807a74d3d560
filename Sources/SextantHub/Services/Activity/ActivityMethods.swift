import SextantCore
import SextantProtocol

/// A session's `activity.transitions.start`: the activities and transitions it asked for.
final class TransitionSubscription {
    let types: ActivityFlags
    let kinds: Set<ActivityTransitionKind>

    init(_ request: ActivityTransitionsStart) {
        types = ActivityFlags(request.types ?? ActivityType.allCases)
        kinds = Set(request.transitions ?? ActivityTransitionKind.allCases)
    }

    func admits(_ transition: ActivityEngine.Transition) -> Bool { types.contains(transition.activity) && kinds.contains(transition.kind) }
}

/// A session's `pedometer.start`: the totals when it started, and the time of the first
/// fix after (its `startDate`).
final class PedometerSubscription {
    let base: StepCounter
    private var startDate: Timestamp?

    init(base: StepCounter) { self.base = base }

    /// A7: the steps and distance since the start, with the cadence and pace now.
    func since(_ steps: StepCounter, at time: Timestamp) -> WirePedometer {
        let start = startDate ?? time
        startDate = start
        return WirePedometer(
            startDate: start, endDate: time, numberOfSteps: steps.steps - base.steps, distance: steps.distance - base.distance,
            currentCadence: steps.cadence, currentPace: steps.pace)
    }
}

/// The activity changed (A1–A5, A9). Motion data, not a location: it needs no location
/// authorization, and is never dropped for a slow client (a change is said once).
struct ActivityEvent: AppEventKind {
    let activity: WireActivity
    static var topic: AppTopic { .activity }
    var outboundKind: OutboundKind { .essential }
    var method: String { Event.activity }
    var params: JSONValue { activity.json }
}

/// An activity entered or left (A6), said once: essential.
struct ActivityTransitionEvent: AppEventKind {
    let transition: WireActivityTransition
    static var topic: AppTopic { .activityTransitions }
    var outboundKind: OutboundKind { .essential }
    var method: String { Event.activityTransition }
    var params: JSONValue { transition.json }
}

/// The steps grew (A7): each event carries the totals since the start, so the newest may
/// replace the ones a slow client has not read.
struct PedometerEvent: AppEventKind {
    let pedometer: WirePedometer
    static var topic: AppTopic { .pedometer }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.pedometer }
    var params: JSONValue { pedometer.json }
}

extension ActivityStop: TopicSwitch {
    static var topic: AppTopic { .activity }
    static var on: Bool { false }
}

/// `activity.start`: the activity now, when there is one, then each change (A1–A5), once
/// the app may have it (A11–A15).
struct ActivityStartMethod: RPCMethod {
    static let name = Method.activityStart
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (hub, session): (Hub, AppSession) = (call.hub, call.session)
        return try hub.activity.withMotionAccess(call) {
            hub.sessions.subscribe(session, to: .activity)
            if let current = hub.activity.current { hub.publish(to: session, ActivityEvent(activity: current)) }
            return [:]
        }
    }
}

extension Hub {
    var activity: ActivityService { services(ActivityService.self) }
}

/// `activity.transitions.start`: from now, the transitions asked for (A6).
struct ActivityTransitionsStartMethod: RPCMethod {
    static let name = Method.activityTransitionsStart
    static let requiresSession = true
    let request: ActivityTransitionsStart

    init(_ p: Params) throws(RPCError) { request = try ActivityTransitionsStart(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (service, session, request): (ActivityService, AppSession, ActivityTransitionsStart) = (call.hub.activity, call.session, request)
        return try service.withMotionAccess(call) {
            service.startTransitions(session, request)
            return [:]
        }
    }
}

struct ActivityTransitionsStopMethod: SessionActionMethod {
    static let name = Method.activityTransitionsStop
    static func perform(_ call: MethodCall) { call.hub.activity.stopTransitions(call.session) }
}

/// `pedometer.start`: `pedometer` events counted from now (A7), once the app may have them (A11–A15).
struct PedometerStartMethod: RPCMethod {
    static let name = Method.pedometerStart
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (service, session): (ActivityService, AppSession) = (call.hub.activity, call.session)
        return try service.withMotionAccess(call) {
            service.startPedometer(session)
            return [:]
        }
    }
}

struct PedometerStopMethod: SessionActionMethod {
    static let name = Method.pedometerStop
    static func perform(_ call: MethodCall) { call.hub.activity.stopPedometer(call.session) }
}

/// `activity.query`: the activities that began in the span, from the history (A8).
struct ActivityQueryMethod: RPCMethod {
    static let name = Method.activityQuery
    static let requiresSession = true
    let span: ActivitySpan

    init(_ p: Params) throws(RPCError) { span = try ActivityQuery(p).span }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (service, span): (ActivityService, ActivitySpan) = (call.hub.activity, span)
        return try service.withMotionAccess(call) {
            let entries = service.engine.history.activities(from: span.from, to: span.to)
            return ["activities": .array(entries.map { ActivityService.wire($0.state, $0.source).json })]
        }
    }
}

/// `pedometer.query`: the steps and distance in the span, from the history (A8).
struct PedometerQueryMethod: RPCMethod {
    static let name = Method.pedometerQuery
    static let requiresSession = true
    let span: ActivitySpan

    init(_ p: Params) throws(RPCError) { span = try PedometerQuery(p).span }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (service, span): (ActivityService, ActivitySpan) = (call.hub.activity, span)
        return try service.withMotionAccess(call) {
            let engine = service.engine
            let (steps, distance) = engine.history.steps(from: span.from, to: span.to, now: engine.steps)
            return WirePedometer(startDate: span.from, endDate: span.to, numberOfSteps: steps, distance: distance, currentCadence: nil, currentPace: nil).json
        }
    }
}

/// `activity.set` (control.sock): an activity held by hand, or `auto` (A9), stamped with
/// the replay's time when a replay plays it, else the last fix's, else the wall clock's.
struct ActivitySetMethod: RPCMethod {
    static let name = Method.activitySet
    let request: ActivitySet

    init(_ p: Params) throws(RPCError) { request = try ActivitySet(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let service = call.hub.activity
        service.hold(request.activity, at: call.sampleTime ?? service.lastTime ?? call.hub.now.wall)  // the device's wall (C7)
        return .result([:])
    }
}
