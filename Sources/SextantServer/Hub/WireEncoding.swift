import SextantCore
import SextantProtocol

// How the hub's values look on the wire (PROTOCOL.md).

extension AuthorizationSnapshot {
    /// As the wire carries it: `authorization.request`'s answer, the `authorization` event.
    var result: AuthorizationResult { AuthorizationResult(status: status, accuracy: accuracy) }
    var json: JSONValue { result.json }
}

extension Prompt {
    var json: JSONValue {
        [
            "id": .string(id), "app": .string(app), "session": .int(Int64(session)), "kind": .string(kind.rawValue),
            "level": JSONValue(level?.rawValue), "created": .string(created.rfc3339),
        ]
    }
}

extension LocationFix {
    /// The `location` event's params; `accuracy` says whether it was reduced.
    func json(accuracy: LocationAccuracy?) -> JSONValue {
        var o = jsonMembers(includingTime: true)
        if let accuracy { o["accuracy"] = .string(accuracy.rawValue) }
        return .object(o)
    }
}

extension StoredPermission {
    func json(app: String) -> JSONValue {
        [
            "app": .string(app), "status": .string(status.rawValue), "accuracy": .string(accuracy.rawValue), "allowOnce": false,
            "updated": .string(updated.rfc3339),
        ]
    }
}

extension PromptPolicy {
    var json: JSONValue { ["mode": .string(mode), "precise": .bool(precise)] }
}
