/// An event as `watch` delivers it: the event, decoded, and the app (and session) it went
/// to, where it went to one; the params as they came, for a view that shows them whole.
public struct WatchedEvent: Sendable, Equatable {
    public var app: String?
    public var session: Int?
    public var event: SextantEvent
    /// The params as the daemon wrote them, `app` and `session` included.
    public var params: JSONValue

    /// Reads a notification from a watch; an event this side cannot read is an error.
    public init(method: String, params: JSONValue) throws(RPCError) {
        let p = try Params(result: params)
        app = try p.string("app")
        session = try p.integer("session")
        event = try SextantEvent(method: method, params: params)
        self.params = params
    }
}
