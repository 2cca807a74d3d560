import NIOCore
import SextantProtocol

/// One request a page sent: `{"id": N, "method": "...", "params": {...}}`, checked as the
/// daemon checks a control request before anything acts on it.
struct PageRequest: Sendable {
    var id: JSONValue
    var method: String
    var params: JSONValue?

    /// A request larger than this is answered with an error, unread.
    static let maximumBytes = 64 * 1024

    /// The request in a text frame, or the error answer to send instead.
    static func read(_ bytes: ByteBuffer) -> Result<PageRequest, PageAnswer> {
        guard bytes.readableBytes <= maximumBytes else {
            return .failure(PageAnswer(id: .null, error: RPCError(code: -32600, message: "a request of \(bytes.readableBytes) bytes is over the 64 KiB limit")))
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes: bytes.readableBytesView)
        } catch {
            return .failure(PageAnswer(id: .null, error: RPCError(code: -32700, message: "the request is not JSON: \(error.description)")))
        }
        guard case .object(let members) = value else {
            return .failure(PageAnswer(id: .null, error: RPCError(code: -32600, message: "a request is a JSON object {\"id\", \"method\", \"params\"}")))
        }
        let id = members["id"] ?? .null
        switch id {
        case .int, .double, .string: break
        default: return .failure(PageAnswer(id: .null, error: RPCError(code: -32600, message: "the request's id must be a number or a string")))
        }
        guard let method = members["method"]?.stringValue else {
            return .failure(PageAnswer(id: id, error: RPCError(code: -32600, message: "the request's method must be a string")))
        }
        let params = members["params"]
        switch params {
        case nil, .null?, .object?: break
        default: return .failure(PageAnswer(id: id, error: RPCError(code: -32602, message: "the params of \(method) must be an object")))
        }
        return .success(PageRequest(id: id, method: method, params: params?.isNull == true ? nil : params))
    }
}

/// An answer to a page: `{"id": N, "result": …}` or `{"id": N, "error": {"code", "message"}}`.
struct PageAnswer: Error, Sendable {
    var id: JSONValue
    var outcome: Result<JSONValue, RPCError>

    init(id: JSONValue, result: Result<JSONValue, RPCError>) {
        self.id = id
        self.outcome = result
    }

    init(id: JSONValue, error: RPCError) { self.init(id: id, result: .failure(error)) }

    var text: String {
        switch outcome {
        case .success(let result): return JSONValue.object(["id": id, "result": result]).serialized()
        case .failure(let error): return JSONValue.object(["id": id, "error": error.json]).serialized()
        }
    }
}
