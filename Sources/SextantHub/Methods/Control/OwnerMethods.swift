import SextantProtocol

/// `permissions.owners`: every app id bound to a uid (docs/security.md).
struct PermissionsOwnersMethod: RPCMethod {
    static let name = Method.permissionsOwners
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(.array(call.hub.ownerEntries())) }
}

/// `permissions.unbind`: frees an app id for the next uid that says it, once stored.
struct PermissionsUnbindMethod: RPCMethod {
    static let name = Method.permissionsUnbind
    let app: String

    init(_ p: Params) throws(RPCError) { app = try PermissionsUnbind(p).app }

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .later(call.hub.unbindAppID(app)) }
}
