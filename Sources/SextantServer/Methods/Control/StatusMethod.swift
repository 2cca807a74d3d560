import SextantProtocol

/// `status`: the daemon at a glance, for `sextantctl status`.
struct StatusMethod: RPCMethod {
    static let name = Method.status
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(call.hub.statusJSON()) }
}

/// `watch`: every event the daemon publishes from now on, or those of the given topics.
struct WatchMethod: RPCMethod {
    static let name = Method.watch
    let topics: Set<String>

    init(_ p: Params) throws(RPCError) { topics = Set(try p.stringList("topics") ?? []) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.watch(topics, on: call.connection)
        return .result([:])
    }
}
