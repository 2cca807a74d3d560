import SextantProtocol

/// `status`: the daemon at a glance, for `sextantctl status`.
struct StatusMethod: RPCMethod {
    static let name = Method.status
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(call.hub.statusJSON()) }
}

/// `watch`: every event the daemon publishes from now on, or those of the given topics,
/// or exactly what one app receives.
struct WatchMethod: RPCMethod {
    static let name = Method.watch
    let filter: WatchFilter

    init(_ p: Params) throws(RPCError) {
        let request = try WatchRequest(p)
        filter = WatchFilter(topics: Set(request.topics ?? []), app: request.app)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.watch(filter, on: call.peer)
        call.hub.sessionsWatched()
        return .result([:])
    }
}

/// What a watcher sees: the topics (all when empty), and with `app`, only the events that
/// went to that app.
struct WatchFilter: Equatable {
    var topics: Set<String>
    var app: String?

    func admits(_ method: String, deliveredTo app: String?) -> Bool {
        guard topics.isEmpty || topics.contains(method) else { return false }
        guard let wanted = self.app else { return true }
        return wanted == app
    }
}
