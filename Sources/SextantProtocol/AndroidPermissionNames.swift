/// Android's three location permissions as `authorization.request {permissions}` names them
/// (docs/platforms.md AN1): ACCESS_COARSE_LOCATION, ACCESS_FINE_LOCATION and
/// ACCESS_BACKGROUND_LOCATION.
public enum AndroidPermission: String, Sendable, CaseIterable, Codable {
    case coarse, fine, background
}

/// Which of the three an app holds (AN2): the `grants` member of an Android phone's
/// `authorization` answer and event, `{"coarse": "granted", "fine": "denied", …}`.
public struct AndroidGrants: Sendable, Hashable {
    public var coarse: Bool
    public var fine: Bool
    public var background: Bool

    public init(coarse: Bool = false, fine: Bool = false, background: Bool = false) {
        self.coarse = coarse
        self.fine = fine
        self.background = background
    }

    public static let none = AndroidGrants()

    public func holds(_ permission: AndroidPermission) -> Bool {
        switch permission {
        case .coarse: return coarse
        case .fine: return fine
        case .background: return background
        }
    }

    public var json: JSONValue {
        func word(_ granted: Bool) -> JSONValue { .string(granted ? "granted" : "denied") }
        return ["coarse": word(coarse), "fine": word(fine), "background": word(background)]
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        func granted(_ key: String) throws(RPCError) -> Bool {
            guard let word = try p.string(key) else { return false }
            guard word == "granted" || word == "denied" else { throw .invalidParams("\"grants.\(key)\" must be granted or denied") }
            return word == "granted"
        }
        self.init(coarse: try granted("coarse"), fine: try granted("fine"), background: try granted("background"))
    }
}

extension Params {
    /// `authorization.request`'s `permissions`: a set of Android permission names in which
    /// fine comes with coarse, as Android refuses a fine request without coarse (AN1).
    public func androidPermissions(_ key: String) throws(RPCError) -> Set<AndroidPermission>? {
        guard let names = try stringList(key) else { return nil }
        var out: Set<AndroidPermission> = []
        for name in names {
            guard let permission = AndroidPermission(rawValue: name) else {
                throw .invalidParams("\"\(key)\": \(name) is not an Android location permission (coarse, fine, background)")
            }
            out.insert(permission)
        }
        guard !out.isEmpty else { throw .invalidParams("\"\(key)\" must name at least one permission: coarse, fine, background") }
        if out.contains(.fine), !out.contains(.coarse) {
            throw .invalidParams(
                "\"\(key)\": fine must be requested with coarse (Android: ACCESS_FINE_LOCATION must be requested with ACCESS_COARSE_LOCATION)")
        }
        return out
    }
}

extension Params {
    /// `permissions.set`'s `grants`: the permissions an app is to hold, none for all revoked.
    /// Fine and background each need coarse, as Settings grants them (AN15).
    public func androidGrantList(_ key: String) throws(RPCError) -> Set<AndroidPermission> {
        guard let names = try stringList(key) else { throw .invalidParams("\"\(key)\" must be a list of coarse, fine, background") }
        var out: Set<AndroidPermission> = []
        for name in names {
            guard let permission = AndroidPermission(rawValue: name) else {
                throw .invalidParams("\"\(key)\": \(name) is not an Android location permission (coarse, fine, background)")
            }
            out.insert(permission)
        }
        if !out.isEmpty, !out.contains(.coarse) {
            throw .invalidParams("\"\(key)\": fine and background are granted with coarse (Settings' Allow all the time grants all three)")
        }
        return out
    }
}
