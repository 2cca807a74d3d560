import SextantCore
import SextantProtocol

/// One stream of events that apps start (with parameters: a motion interval, a heading
/// filter) and stop: `<name>.start` sets the session's subscription afresh, `<name>.stop`
/// removes it, and the session hears `topic` while it has one. The stream names its two
/// requests, its topic, what a `start` makes and where its subscribers are kept: a
/// ``StreamingService``, or one channel of a service that keeps several (light, proximity).
/// The methods (``StreamStartMethod``, ``StreamStopMethod``) come with it.
protocol AppStream {
    /// What keeps the stream's subscribers.
    associatedtype Keeper: SubscriberKeeper
    /// The app's `start` request, which carries the parameters.
    associatedtype StartRequest: RPCRequest
    /// The app's `stop` request.
    associatedtype StopRequest: RPCRequest

    /// The topic a subscribed session hears.
    static var topic: AppTopic { get }
    static func keeper(in hub: Hub) -> Keeper
    /// The subscription a `start` makes.
    static func subscription(for request: StartRequest, of session: AppSession, in hub: Hub) -> Keeper.Subscription
    /// What a `start` answers: `{}` unless the stream has something to say.
    static func answer(_ subscription: Keeper.Subscription, to request: StartRequest) -> JSONValue
}

/// What keeps one stream's subscribers (in id order), and what it does once one started or stopped.
protocol SubscriberKeeper: AnyObject {
    /// A session's subscription: its parameters and what it last heard.
    associatedtype Subscription: AnyObject
    var subscribers: Subscribers<Subscription> { get set }
    /// `session` was subscribed and hears the topic (a stream that speaks at once does here).
    func started(_ session: AppSession)
    /// `session` was unsubscribed and hears the topic no more.
    func stopped(_ session: AppSession)
}

extension SubscriberKeeper {
    func started(_ session: AppSession) {}
    func stopped(_ session: AppSession) {}
}

extension AppStream {
    static func answer(_ subscription: Keeper.Subscription, to request: StartRequest) -> JSONValue { [:] }

    /// From the next sample on, the session hears the stream as `subscription` says.
    static func start(_ session: AppSession, _ subscription: Keeper.Subscription, in hub: Hub) {
        let keeper = keeper(in: hub)
        keeper.subscribers.set(session, subscription)
        hub.sessions.subscribe(session, to: topic)
        keeper.started(session)
    }

    static func stop(_ session: AppSession, in hub: Hub) {
        let keeper = keeper(in: hub)
        keeper.subscribers.remove(session)
        hub.sessions.unsubscribe(session, from: topic)
        keeper.stopped(session)
    }
}

/// A subscription that a `start` without parameters makes afresh: it holds only what the
/// session was last sent.
protocol FreshSubscription: AnyObject {
    init()
}

extension AppStream where Keeper.Subscription: FreshSubscription {
    static func subscription(for request: StartRequest, of session: AppSession, in hub: Hub) -> Keeper.Subscription { .init() }
}

/// A service that is one ``AppStream`` and keeps its subscribers itself (motion, heading,
/// the altimeter, the iOS diagnostics); a closed session's subscription goes with it.
protocol StreamingService: PhoneService, AppStream, SubscriberKeeper where Keeper == Self {
    var hub: Hub { get }
}

extension StreamingService {
    static var appMethods: [any RPCMethod.Type] { [StreamStartMethod<Self>.self, StreamStopMethod<Self>.self] }

    static func keeper(in hub: Hub) -> Self { hub.services(Self.self) }

    func start(_ session: AppSession, _ subscription: Subscription) { Self.start(session, subscription, in: hub) }

    func stop(_ session: AppSession) { Self.stop(session, in: hub) }

    func sessionClosed(_ session: AppSession) { subscribers.remove(session) }
}

/// `<name>.start` of an ``AppStream``: starting again sets the parameters afresh.
struct StreamStartMethod<Stream: AppStream>: RPCMethod {
    static var name: String { Stream.StartRequest.method }
    static var requiresSession: Bool { true }
    let request: Stream.StartRequest

    init(_ p: Params) throws(RPCError) { request = try Stream.StartRequest(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let subscription = Stream.subscription(for: request, of: call.session, in: call.hub)
        Stream.start(call.session, subscription, in: call.hub)
        return .result(Stream.answer(subscription, to: request))
    }
}

/// `<name>.stop` of an ``AppStream``.
struct StreamStopMethod<Stream: AppStream>: RPCMethod {
    static var name: String { Stream.StopRequest.method }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) { _ = try Stream.StopRequest(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        Stream.stop(call.session, in: call.hub)
        return .result([:])
    }
}
