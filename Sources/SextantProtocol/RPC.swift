/// JSON-RPC 2.0 messages, one JSON object per line.

/// An error as it travels in a response: a code, a message and optional data.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public init(_ code: RPCErrorCode, _ message: String, data: JSONValue? = nil) {
        self.init(code: code.rawValue, message: message, data: data)
    }

    public var knownCode: RPCErrorCode? { RPCErrorCode(rawValue: code) }

    public var description: String { "\(message) (\(code))" }

    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { members["data"] = data }
        return .object(members)
    }

    public init?(json: JSONValue) {
        guard let code = json["code"]?.intValue else { return nil }
        self.init(code: code, message: json["message"]?.stringValue ?? "", data: json["data"])
    }

    // Shorthands used across the daemon.
    public static func invalidParams(_ message: String) -> RPCError { RPCError(.invalidParams, message) }
    public static func internalError(_ message: String) -> RPCError { RPCError(.internalError, message) }
}

/// One incoming or outgoing JSON-RPC message.
public enum RPCMessage: Sendable, Equatable {
    case request(id: JSONValue, method: String, params: JSONValue?)
    case notification(method: String, params: JSONValue?)
    case response(id: JSONValue, result: JSONValue)
    case errorResponse(id: JSONValue, error: RPCError)

    public var json: JSONValue {
        switch self {
        case .request(let id, let method, let params):
            var o: [String: JSONValue] = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
            if let params { o["params"] = params }
            return .object(o)
        case .notification(let method, let params):
            var o: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
            if let params { o["params"] = params }
            return .object(o)
        case .response(let id, let result):
            return ["jsonrpc": "2.0", "id": id, "result": result]
        case .errorResponse(let id, let error):
            return ["jsonrpc": "2.0", "id": id, "error": error.json]
        }
    }

    /// One line of NDJSON, with its newline.
    public var line: String {
        var out = json.serialized()
        out += "\n"
        return out
    }

    /// Interprets a parsed JSON value as a JSON-RPC 2.0 message.
    ///
    /// The error, when there is one, comes with the `id` to answer it with (null when the
    /// id itself could not be read).
    public static func decode(_ value: JSONValue) -> Result<RPCMessage, RPCDecodeFailure> {
        guard case .object(let o) = value else {
            return .failure(RPCDecodeFailure(id: .null, error: RPCError(.invalidRequest, "a message must be a JSON object")))
        }
        let id = o["id"]
        let replyID: JSONValue
        switch id {
        case .none, .some(.null), .some(.string), .some(.int), .some(.double), .some(.numberText): replyID = id ?? .null
        default:
            return .failure(RPCDecodeFailure(id: .null, error: RPCError(.invalidRequest, "\"id\" must be a string, a number or null")))
        }
        guard o["jsonrpc"] == .string("2.0") else {
            return .failure(RPCDecodeFailure(id: replyID, error: RPCError(.invalidRequest, "\"jsonrpc\" must be \"2.0\"")))
        }
        if let method = o["method"] {
            guard case .string(let name) = method else {
                return .failure(RPCDecodeFailure(id: replyID, error: RPCError(.invalidRequest, "\"method\" must be a string")))
            }
            let params = o["params"]
            switch params {
            case .none, .some(.object), .some(.array): break
            default:
                return .failure(RPCDecodeFailure(id: replyID, error: RPCError(.invalidRequest, "\"params\" must be an object or an array")))
            }
            if let id { return .success(.request(id: id, method: name, params: params)) }
            return .success(.notification(method: name, params: params))
        }
        if let id, let result = o["result"] { return .success(.response(id: id, result: result)) }
        if let id, let error = o["error"], let rpcError = RPCError(json: error) {
            return .success(.errorResponse(id: id, error: rpcError))
        }
        return .failure(RPCDecodeFailure(id: replyID, error: RPCError(.invalidRequest, "not a request, a response or a notification")))
    }
}

public struct RPCDecodeFailure: Error, Sendable, Equatable {
    public var id: JSONValue
    public var error: RPCError

    public init(id: JSONValue, error: RPCError) {
        self.id = id
        self.error = error
    }
}

/// Reads typed parameters from a request's `params`, with -32602 errors that name the field.
public struct Params: Sendable {
    public let members: [String: JSONValue]

    public init(_ params: JSONValue?) throws(RPCError) {
        switch params {
        case .none, .some(.null): members = [:]
        case .some(.object(let o)): members = o
        case .some(.array(let a)) where a.isEmpty: members = [:]
        default: throw RPCError.invalidParams("params must be an object of named parameters")
        }
    }

    public func has(_ key: String) -> Bool {
        if let value = members[key], !value.isNull { return true }
        return false
    }

    public func string(_ key: String) throws(RPCError) -> String? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let s = value.stringValue else { throw .invalidParams("\"\(key)\" must be a string") }
        return s
    }

    public func requiredString(_ key: String) throws(RPCError) -> String {
        guard let s = try string(key) else { throw .invalidParams("\"\(key)\" is required") }
        return s
    }

    public func bool(_ key: String) throws(RPCError) -> Bool? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let b = value.boolValue else { throw .invalidParams("\"\(key)\" must be true or false") }
        return b
    }

    public func requiredBool(_ key: String) throws(RPCError) -> Bool {
        guard let b = try bool(key) else { throw .invalidParams("\"\(key)\" is required") }
        return b
    }

    public func number(_ key: String) throws(RPCError) -> Double? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let d = value.doubleValue, d.isFinite else { throw .invalidParams("\"\(key)\" must be a number") }
        return d
    }

    public func object(_ key: String) throws(RPCError) -> Params? {
        guard let value = members[key], !value.isNull else { return nil }
        guard case .object = value else { throw .invalidParams("\"\(key)\" must be an object") }
        return try Params(value)
    }

    public func stringList(_ key: String) throws(RPCError) -> [String]? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let items = value.arrayValue else { throw .invalidParams("\"\(key)\" must be a list of strings") }
        var out: [String] = []
        for item in items {
            guard let s = item.stringValue else { throw .invalidParams("\"\(key)\" must be a list of strings") }
            out.append(s)
        }
        return out
    }

    /// A string that must be one of an enum's raw values.
    public func name<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) throws(RPCError) -> T?
    where T.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let value = T(rawValue: s) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidParams("\"\(key)\" must be one of: \(allowed) (got \"\(s)\")")
        }
        return value
    }
}
