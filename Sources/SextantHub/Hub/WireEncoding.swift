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

extension LocationFix {
    /// The `location` event's params; `accuracy` says whether it was reduced, `simulated`
    /// whether software made it (N7).
    func json(accuracy: LocationAccuracy?) -> JSONValue { .object(wireMembers(accuracy: accuracy)) }

    /// The `location` event as `watch` shows it: the fix before the rules, and `truth`
    /// (what the source gave) when a GNSS profile reported something else (N6).
    func watchedJSON(truth: LocationFix) -> JSONValue {
        var o = wireMembers(accuracy: nil)
        var untouched = truth
        untouched.simulated = simulated
        if untouched != self { o["truth"] = .object(truth.jsonMembers(includingTime: false)) }
        return .object(o)
    }

    private func wireMembers(accuracy: LocationAccuracy?) -> [String: JSONValue] {
        var o = jsonMembers(includingTime: true)
        o[LocationKey.simulated] = .bool(simulated)
        if let accuracy { o[LocationKey.accuracy] = .string(accuracy.rawValue) }
        return o
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
