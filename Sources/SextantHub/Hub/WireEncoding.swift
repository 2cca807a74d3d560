import SextantCore
import SextantProtocol

// How the hub's values look on the wire (PROTOCOL.md).

extension AuthorizationSnapshot {
    /// As the wire carries it: `authorization.request`'s answer, the `authorization` event.
    var result: AuthorizationResult {
        AuthorizationResult(status: status, accuracy: accuracy, grants: android?.grants, oneTime: android?.oneTime)
    }
    var json: JSONValue { result.json }
}

extension Prompt {
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "app": .string(app), "session": .int(Int64(session)), "kind": .string(kind.rawValue),
            "level": JSONValue(level?.rawValue), "created": .string(created.rfc3339),
        ]
        if let purposeKey { members["purposeKey"] = .string(purposeKey) }  // docs/platforms.md I9
        // An Android dialog says what it asks and which buttons it has (docs/platforms.md AN3).
        if let android { members["android"] = android.json }
        return .object(members)
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
