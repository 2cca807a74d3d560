/// `permissions.explain`: everything that decides what an app gets of location now: its
/// status, the stored decision, the facets apps cannot see, the timers running and when each
/// fires, its open prompts (docs/platforms.md).
public struct PermissionsExplain: RPCRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.permissionsExplain
    public var app: String

    public init(app: String) { self.app = app }

    public init(_ p: Params) throws(RPCError) { app = try p.appID("app") }

    public var params: JSONValue { ["app": .string(app)] }
}
