/// A value that travels as JSON: read with the messages ``Params`` gives (they name the
/// member), written back member for member, so that `T(json: x.json) == x`.
public protocol WireValue: Sendable {
    init(json: JSONValue) throws(RPCError)
    var json: JSONValue { get }
}

/// A method of the protocol as a type: its name, its params, and the type of its result.
///
/// Why this shape: the request is a value that both ends share. A client builds it and
/// sends ``params``; the daemon's method reads its params with the same `init(_:)`, so the
/// two cannot drift, and a check the protocol makes (a negative `distanceFilter`, an app
/// id out of the alphabet) is made once with one message. The result's type is named by
/// the request (`associatedtype Result`), so `connection.call(LocationStart())` returns a
/// typed value and a misspelled member is a compile error. Params and results are
/// `JSONValue`s, not `Codable`: this module does without Foundation, and the daemon's
/// -32602 messages are ``Params``'s. A result that clients only pass on or print whole
/// (`status`, `apps.list`) stays a `JSONValue`, which is a ``WireValue`` as it is.
public protocol RPCRequest: Sendable {
    associatedtype Result: WireValue
    static var method: String { get }
    /// Reads a request's params, with -32602 errors that name the member.
    init(_ params: Params) throws(RPCError)
    /// The params as sent; absent members are left out.
    var params: JSONValue { get }
}

extension RPCRequest {
    public var method: String { Self.method }

    /// Reads a result of this request.
    public static func decodeResult(_ json: JSONValue) throws(RPCError) -> Result { try Result(json: json) }
}

extension JSONValue: WireValue {
    public init(json: JSONValue) { self = json }
    public var json: JSONValue { self }
}

/// The `{}` most methods answer with.
public struct EmptyResult: WireValue, Equatable {
    public init() {}
    public init(json: JSONValue) throws(RPCError) { _ = try Params(json) }
    public var json: JSONValue { [:] }
}

/// A list of values of one type, as a list result is.
extension Array: WireValue where Element: WireValue {
    public init(json: JSONValue) throws(RPCError) {
        guard let items = json.arrayValue else { throw .invalidParams("expected a list") }
        var out: [Element] = []
        out.reserveCapacity(items.count)
        for item in items { out.append(try Element(json: item)) }
        self = out
    }

    public var json: JSONValue { .array(map(\.json)) }
}

/// A request that takes no params.
public protocol ParameterlessRequest: RPCRequest {
    init()
}

extension ParameterlessRequest {
    public init(_ params: Params) throws(RPCError) { self.init() }
    public var params: JSONValue { [:] }
}

extension Params {
    /// Reads a result object (its members checked as params are).
    public init(result json: JSONValue) throws(RPCError) {
        guard case .object = json else { throw .invalidParams("expected an object") }
        try self.init(json)
    }

    /// A string member that must be there.
    public func required<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) throws(RPCError) -> T
    where T.RawValue == String {
        guard let value = try name(key, as: type) else { throw .invalidParams("\"\(key)\" is required") }
        return value
    }

    /// A number member that must be there.
    public func requiredNumber(_ key: String) throws(RPCError) -> Double {
        guard let value = try number(key) else { throw .invalidParams("\"\(key)\" is required") }
        return value
    }

    /// A whole number member.
    public func integer(_ key: String) throws(RPCError) -> Int? {
        guard let value = members[key], !value.isNull else { return nil }
        guard let int = value.intValue else { throw .invalidParams("\"\(key)\" must be a whole number") }
        return int
    }

    /// An app id (1-255 of `[A-Za-z0-9._-]`), required.
    public func appID(_ key: String) throws(RPCError) -> String {
        let app = try requiredString(key)
        guard AppID.isValid(app) else { throw .invalidParams("\"\(key)\" must be 1-255 of [A-Za-z0-9._-]") }
        return app
    }
}

/// Builds a params or result object, leaving out members that are nil.
public struct WireObject {
    public private(set) var members: [String: JSONValue] = [:]

    public init() {}

    public subscript(key: String) -> JSONValue? {
        get { members[key] }
        set { members[key] = newValue }
    }

    public mutating func set(_ key: String, _ value: String?) { if let value { members[key] = .string(value) } }
    public mutating func set(_ key: String, _ value: Double?) { if let value { members[key] = .double(value) } }
    public mutating func set(_ key: String, _ value: Bool?) { if let value { members[key] = .bool(value) } }
    public mutating func set<T: RawRepresentable>(_ key: String, _ value: T?) where T.RawValue == String {
        if let value { members[key] = .string(value.rawValue) }
    }

    public var json: JSONValue { .object(members) }
}
