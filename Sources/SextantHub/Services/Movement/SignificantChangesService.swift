import SextantCore
import SextantProtocol
import SextantStore

/// The significant-change service (RULES S1–S3): one monitor per session that started it,
/// offered the fixes the rules let it have.
final class SignificantChangesService: PhoneService {
    static var appMethods: [any RPCMethod.Type] {
        [
        MovementServiceMethod<SignificantChangesStart>.self, MovementServiceMethod<SignificantChangesStop>.self,
        ]
    }

    private unowned let hub: Hub
    private var subscribers = Subscribers<SignificantChangeSubscription>()

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    var wantsFixes: Bool { !subscribers.isEmpty }

    /// A restart begins afresh: its next fix is a change (S1).
    func start(_ session: AppSession) {
        subscribers.set(session, SignificantChangeSubscription(SignificantChangeMonitor(settings: hub.configuration.services.significantChanges)))
        hub.sessions.subscribe(session, to: .significantChanges)
    }

    func stop(_ session: AppSession) {
        subscribers.remove(session)
        hub.sessions.unsubscribe(session, from: .significantChanges)
    }

    func sessionClosed(_ session: AppSession) { subscribers.remove(session) }

    /// S1–S3 for each session: offered only while it may have locations (L1, L8, L9), so
    /// the last change delivered is the last one it received.
    func fixDecided(_ fix: LocationFix) {
        for (session, subscription) in subscribers.entries {
            hub.services.fixes.settle(session)
            guard let (fudger, accuracy) = hub.movementFudger(for: session) else { continue }
            guard subscription.monitor.offer(fix) else { continue }
            hub.publish(to: session, SignificantChangeEvent(fix: fudger.map { $0.coarsen(fix).fix } ?? fix, accuracy: accuracy))
        }
    }
}

/// A session's monitor, changed in place as fixes pass.
final class SignificantChangeSubscription {
    var monitor: SignificantChangeMonitor
    init(_ monitor: SignificantChangeMonitor) { self.monitor = monitor }
}

/// A significant change (RULES S1–S3): a fix, already reduced when the app's accuracy is.
struct SignificantChangeEvent: AppEventKind {
    let fix: LocationFix
    let accuracy: LocationAccuracy
    static var topic: AppTopic { .significantChanges }
    static var isLocationDerived: Bool { true }
    static var needsAlwaysInBackground: Bool { true }
    var outboundKind: OutboundKind { .location }
    var method: String { Event.significantChange }
    var params: JSONValue { fix.json(accuracy: accuracy) }
}

extension SignificantChangesStart: MovementSwitch {
    static var on: Bool { true }
    static func start(_ session: AppSession, _ hub: Hub) { hub.services(SignificantChangesService.self).start(session) }
}

extension SignificantChangesStop: MovementSwitch {
    static var on: Bool { false }
    static func stop(_ session: AppSession, _ hub: Hub) { hub.services(SignificantChangesService.self).stop(session) }
}
