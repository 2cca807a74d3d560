import SextantCore
import SextantProtocol
import SextantStore

extension AppTopic {
    /// `activity.start` (iOS activity updates), `activity.transitions.start` (Android's
    /// transitions) and `pedometer.start` (RULES A1–A9).
    static let activity = AppTopic("activity")
    static let activityTransitions = AppTopic("activityTransitions")
    static let pedometer = AppTopic("pedometer")
}

/// The device's activity and steps (RULES A1–A9, sextant-rules(7) "ACTIVITY"): one engine
/// for the device, fed the true fixes while anyone hears it — a session that started
/// activity updates, transitions or the pedometer, or a watcher of their events — and
/// resuming afresh (without the stretch across the gap) when the first listener comes.
/// Recorded activities and the hand's take the place of the derived one (A9).
final class ActivityService: PhoneService {
    static var appMethods: [any RPCMethod.Type] {
        [
            ActivityStartMethod.self, SubscriptionMethod<ActivityStop>.self,
            ActivityTransitionsStartMethod.self, ActivityTransitionsStopMethod.self, ActivityQueryMethod.self,
            PedometerStartMethod.self, PedometerStopMethod.self, PedometerQueryMethod.self,
            ActivityAuthorizationMethod.self, ActivityRequestAuthorizationMethod.self,
        ]
    }
    static var controlMethods: [any RPCMethod.Type] { [ActivitySetMethod.self, MotionPermissionsSetMethod.self, MotionPermissionsListMethod.self] }
    static var consumedRecords: [RecordKind] { [.activity] }

    unowned let hub: Hub
    private(set) var engine = ActivityEngine()
    private var transitions = Subscribers<TransitionSubscription>()
    private var pedometers = Subscribers<PedometerSubscription>()
    /// Whether the engine saw the previous fix: if not, it resumes at this one.
    private var judging = false
    /// The time of the last fix or record judged: a query's and a hand's `now`.
    private(set) var lastTime: Timestamp?
    /// Calls waiting for a Motion & Fitness prompt (A13, A15): MotionAuthorizationFlow.swift.
    var waiters: [MotionWaiter] = []
    /// Activity subscribers an update did not reach (suspended, I15): each gets the latest
    /// once it may hear again (I16).
    private var missedActivity: Set<SessionID> = []

    private let listeners: Listeners

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        listeners = hub.listeners
        // A11: the statuses are decisions the authorization engine holds beside location's.
        hub.applyDecision { $0.loadMotionPermissions(stored.motionPermissions, denials: stored.motionDenials) }
    }

    func holdsStored(_ app: String) -> Bool { hub.authorization.motion.statuses[app] != nil }

    func conditionsChanged() {
        motionConditionsChanged()
        handMissedActivity()
    }

    /// I16: Core Motion hands an app resuming (to the foreground, or to running in the
    /// background) the most recent activity update it missed while suspended.
    private func handMissedActivity() {
        guard !missedActivity.isEmpty else { return }
        let listening = hub.sessions.subscribers(of: .activity)
        missedActivity.formIntersection(listening.map(\.id))
        for session in listening where missedActivity.contains(session.id) && hub.mayHearMotion(session, .activity) {
            missedActivity.remove(session.id)
            if let current { hub.publish(to: session, ActivityEvent(activity: current)) }
        }
    }

    var transitionSessions: [AppSession] { transitions.entries.map(\.session) }
    var pedometerSessions: [AppSession] { pedometers.entries.map(\.session) }

    /// Whether a watcher takes activities or steps, asked on every fix.
    private var watched = WatcherInterest(Event.activity, Event.pedometer)

    var wantsFixes: Bool {
        let heard =
            listeners.hear(.activity) || !transitions.isEmpty || !pedometers.isEmpty
            || listeners.admit(&watched)
        if !heard { judging = false }
        return heard
    }

    /// A1–A7 from the fix as its source gave it (the true speed, before the GNSS profile).
    func fixSampled(_ truth: LocationFix, from source: SourceName) {
        if !judging {
            engine.resume()
            judging = true
        }
        lastTime = truth.time
        publish(engine.fix(truth), at: truth.time)
    }

    /// A9: a recorded activity, from its time on.
    func recordSampled(_ record: SampleRecord, at time: Timestamp, from source: SourceName) {
        guard let recorded = record.value(as: RecordedActivity.self) else { return }
        lastTime = time
        let state = ActivityState(flags: recorded.flags, start: time, confidence: recorded.confidence, percent: Self.percent(recorded.confidence))
        publish(engine.recorded(state, at: time), at: time)
    }

    /// A9: `activity.set`.
    func hold(_ type: ActivityType?, at time: Timestamp) {
        publish(engine.hold(type, at: time), at: time)
    }

    static func percent(_ confidence: ActivityConfidence) -> Int {
        switch confidence {
        case .low: return 50
        case .medium: return 75
        case .high: return 100
        }
    }

    func startTransitions(_ session: AppSession, _ request: ActivityTransitionsStart) {
        transitions.set(session, TransitionSubscription(request))
        hub.sessions.subscribe(session, to: .activityTransitions)
    }

    func stopTransitions(_ session: AppSession) {
        transitions.remove(session)
        hub.sessions.unsubscribe(session, from: .activityTransitions)
    }

    func startPedometer(_ session: AppSession) {
        pedometers.set(session, PedometerSubscription(base: engine.steps))
        hub.sessions.subscribe(session, to: .pedometer)
    }

    func stopPedometer(_ session: AppSession) {
        pedometers.remove(session)
        hub.sessions.unsubscribe(session, from: .pedometer)
    }

    func sessionClosed(_ session: AppSession) {
        missedActivity.remove(session.id)
        transitions.remove(session)
        pedometers.remove(session)
        for waiter in waiters where waiter.session === session {
            waiter.promise.fail(Self.refusal(session.app, motionStatus(of: session.app), "the session ended"))
        }
        waiters.removeAll { $0.session === session }
    }

    /// A11: everything the session started ends (its status is no longer authorized).
    func stopAll(_ session: AppSession) {
        hub.sessions.unsubscribe(session, from: .activity)
        stopTransitions(session)
        stopPedometer(session)
    }

    /// The report now, as an `activity` event's params.
    var current: WireActivity? { engine.report.map { Self.wire($0.state, $0.source) } }

    static func wire(_ state: ActivityState, _ source: ActivitySource) -> WireActivity {
        WireActivity(types: state.flags.types, confidence: state.confidence, percent: state.percent, startDate: state.start, source: source.rawValue)
    }

    var statusMembers: [String: JSONValue] {
        let steps = engine.steps
        return [
            "activity": current?.json ?? .null,
            "steps": ["numberOfSteps": JSONValue(steps.steps), "distance": .double(steps.distance)],
        ]
    }

    private func publish(_ change: ActivityEngine.Change, at time: Timestamp) {
        if let report = change.report { publishActivity(Self.wire(report.state, report.source)) }
        if !change.transitions.isEmpty { publishTransitions(change.transitions, at: time) }
        if change.stepped { publishSteps(at: time) }
    }

    private func publishActivity(_ activity: WireActivity) {
        hub.broadcastToWatchers(Event.activity, activity.json, kind: .sensor)
        let listeners = hub.sessions.subscribers(of: .activity)
        guard !listeners.isEmpty else { return }
        let event = SharedEvent(ActivityEvent(activity: activity))
        // AN40, I15: Play services reach a background app; a suspended iOS app hears nothing
        // now, and the latest when it resumes (I16).
        for session in listeners {
            if hub.mayHearMotion(session, .activity) { hub.publish(to: session, event) } else { missedActivity.insert(session.id) }
        }
    }

    /// A6: each transition its subscribers asked for, its time on the device's monotonic
    /// clock (Android's elapsedRealtime, RULES C7) as far before now as it lies before the
    /// fix that decided it.
    private func publishTransitions(_ list: [ActivityEngine.Transition], at time: Timestamp) {
        let now = hub.now.monotonic
        for transition in list {
            let wire = WireActivityTransition(
                activity: transition.activity, transition: transition.kind, time: transition.time,
                elapsedRealtimeNanos: now - max(0, time.nanoseconds - transition.time.nanoseconds))
            hub.broadcastToWatchers(Event.activityTransition, wire.json, kind: .sensor)
            for (session, subscription) in transitions.entries where subscription.admits(transition) && hub.mayHearMotion(session, .activityTransitions) {
                hub.publish(to: session, ActivityTransitionEvent(transition: wire))
            }
        }
    }

    /// A7: each pedometer's steps since its start.
    private func publishSteps(at time: Timestamp) {
        let steps = engine.steps
        if hub.watchersAdmit(Event.pedometer) {
            let total = WirePedometer(
                startDate: time, endDate: time, numberOfSteps: steps.steps, distance: steps.distance, currentCadence: steps.cadence,
                currentPace: steps.pace)
            hub.broadcastToWatchers(Event.pedometer, total.json, kind: .sensor)
        }
        // AN40: the step counter is a sensor (none in the background); I15 as the activity.
        for (session, subscription) in pedometers.entries where hub.mayHearMotion(session, .pedometer) {
            hub.publish(to: session, PedometerEvent(pedometer: subscription.since(steps, at: time)))
        }
    }
}
