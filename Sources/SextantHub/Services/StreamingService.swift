import SextantCore
import SextantProtocol

/// A service whose sessions subscribe with parameters (a motion interval, a heading
/// filter): `<name>.start` sets the session's subscription afresh, `<name>.stop` and a
/// closed session remove it. The service keeps each subscription in its `Subscribers`
/// table and the session hears the service's topic while it has one.
protocol StreamingService: PhoneService {
    /// A session's subscription: its parameters and what it last heard.
    associatedtype Subscription: AnyObject
    /// The app's `start` request, which carries the parameters.
    associatedtype StartRequest: RPCRequest
    /// The app's `stop` request.
    associatedtype StopRequest: RPCRequest

    /// The topic a subscribed session hears.
    static var topic: AppTopic { get }
    /// The subscription a `start` request makes.
    static func subscription(for request: StartRequest) -> Subscription

    var hub: Hub { get }
    var subscribers: Subscribers<Subscription> { get set }
}

extension StreamingService {
    static var appMethods: [any RPCMethod.Type] { [StreamStartMethod<Self>.self, StreamStopMethod<Self>.self] }

    /// From the next sample on, the session hears the service as `subscription` says.
    func start(_ session: AppSession, _ subscription: Subscription) {
        subscribers.set(session, subscription)
        hub.sessions.subscribe(session, to: Self.topic)
    }

    func stop(_ session: AppSession) {
        subscribers.remove(session)
        hub.sessions.unsubscribe(session, from: Self.topic)
    }

    func sessionClosed(_ session: AppSession) { subscribers.remove(session) }
}

/// `<name>.start` of a ``StreamingService``: starting again sets the parameters afresh.
struct StreamStartMethod<Service: StreamingService>: RPCMethod {
    static var name: String { Service.StartRequest.method }
    static var requiresSession: Bool { true }
    let request: Service.StartRequest

    init(_ p: Params) throws(RPCError) { request = try Service.StartRequest(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.services(Service.self).start(call.session, Service.subscription(for: request))
        return .result([:])
    }
}

/// `<name>.stop` of a ``StreamingService``.
struct StreamStopMethod<Service: StreamingService>: RPCMethod {
    static var name: String { Service.StopRequest.method }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) { _ = try Service.StopRequest(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.services(Service.self).stop(call.session)
        return .result([:])
    }
}
