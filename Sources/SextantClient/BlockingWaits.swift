import SextantProtocol

/// The blocking calls: each waits on the connection's inbox with a time-out, so a test or
/// a script never hangs.
extension SextantConnection {
    /// Sends a request and waits for its answer; events that arrive meanwhile are kept.
    public func call(_ method: String, _ params: JSONValue? = nil, timeout: Double = 10) throws(ClientError) -> JSONValue {
        let id = try send(method, params)
        return try response(to: id, timeout: timeout)
    }

    /// Sends a typed request and waits for its answer, decoded as the request's result.
    public func call<Request: RPCRequest>(_ request: Request, timeout: Double = 10) throws(ClientError) -> Request.Result {
        try decode(call(Request.method, request.params, timeout: timeout), answering: request)
    }

    /// Waits for the answer to an earlier typed request.
    public func response<Request: RPCRequest>(to id: JSONValue, answering request: Request, timeout: Double = 10) throws(ClientError) -> Request.Result {
        try decode(response(to: id, timeout: timeout), answering: request)
    }

    /// Waits for the answer to an earlier request.
    public func response(to id: JSONValue, timeout: Double = 10) throws(ClientError) -> JSONValue {
        try core.wait(until: Monitor.now() + timeout, for: "the answer to request \(id)") { inbox throws(ClientError) in try inbox.takeAnswer(id) }
    }

    /// Whether the answer to an earlier request has arrived (without waiting).
    public func hasResponse(to id: JSONValue) throws(ClientError) -> Bool {
        try core.take { $0.hasAnswer(id) }
    }

    /// The next event, waiting up to `timeout` seconds.
    public func nextEvent(timeout: Double = 10) throws(ClientError) -> ServerEvent {
        try nextEvent(timeout: timeout, description: "an event") { _ in true }
    }

    /// The next event that matches, waiting up to `timeout` seconds; events passed over
    /// on the way are dropped.
    public func nextEvent(timeout: Double = 10, description: String, where matches: (ServerEvent) -> Bool) throws(ClientError) -> ServerEvent {
        try core.wait(until: Monitor.now() + timeout, for: description) { inbox throws(ClientError) in try inbox.takeEvent(where: matches) }
    }

    /// Events that have arrived so far, without waiting.
    public func takeEvents() throws(ClientError) -> [ServerEvent] {
        try core.take { $0.takeEvents() }
    }

    /// The next message of any kind, as the daemon wrote it (tests of error responses with
    /// null ids); a line that is not JSON comes as a string.
    public func nextMessage(timeout: Double = 10) throws(ClientError) -> JSONValue {
        try core.wait(until: Monitor.now() + timeout, for: "a message") { inbox throws(ClientError) in try inbox.takeMessage() }
    }
}
