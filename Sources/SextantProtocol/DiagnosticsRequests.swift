/// `diagnostics.start` / `diagnostics.stop` (iOS profile, docs/platforms.md I13): the
/// session's `diagnostics` events, the current flags at once and then each change.
public struct DiagnosticsStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.diagnosticsStart
    public init() {}
}

public struct DiagnosticsStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.diagnosticsStop
    public init() {}
}

/// The `diagnostics` event's params: why a session gets locations or not, under Apple's own
/// names (`CLServiceSession.Diagnostic`, `CLLocationUpdate`), each a bool.
public struct WireDiagnostics: WireValue, Equatable {
    public var authorizationDenied = false
    public var authorizationDeniedGlobally = false
    public var authorizationRestricted = false
    public var authorizationRequestInProgress = false
    public var alwaysAuthorizationDenied = false
    public var fullAccuracyDenied = false
    public var insufficientlyInUse = false
    public var serviceSessionRequired = false
    public var accuracyLimited = false
    public var locationUnavailable = false
    public var stationary = false

    public init() {}

    /// The flags' names in the order of sextant-protocol(7), each with its path here.
    public static var flags: [(name: String, path: WritableKeyPath<WireDiagnostics, Bool>)] {
        [
            ("authorizationDenied", \.authorizationDenied),
            ("authorizationDeniedGlobally", \.authorizationDeniedGlobally),
            ("authorizationRestricted", \.authorizationRestricted),
            ("authorizationRequestInProgress", \.authorizationRequestInProgress),
            ("alwaysAuthorizationDenied", \.alwaysAuthorizationDenied),
            ("fullAccuracyDenied", \.fullAccuracyDenied),
            ("insufficientlyInUse", \.insufficientlyInUse),
            ("serviceSessionRequired", \.serviceSessionRequired),
            ("accuracyLimited", \.accuracyLimited),
            ("locationUnavailable", \.locationUnavailable),
            ("stationary", \.stationary),
        ]
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        for flag in Self.flags { self[keyPath: flag.path] = try p.requiredBool(flag.name) }
    }

    public var json: JSONValue {
        var members: [String: JSONValue] = [:]
        for flag in Self.flags { members[flag.name] = .bool(self[keyPath: flag.path]) }
        return .object(members)
    }
}
