import SextantCore
import SextantProtocol

// How the hub's values look on the wire (PROTOCOL.md).

extension AuthorizationSnapshot {
    var json: JSONValue { ["status": .string(status.rawValue), "accuracy": .string(accuracy.rawValue)] }
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
        var o: [String: JSONValue] = [
            "lat": .double(latitude), "lon": .double(longitude), "time": .string(time.rfc3339), "hAcc": .double(horizontalAccuracy),
        ]
        if let altitude { o["alt"] = .double(altitude) }
        if let verticalAccuracy { o["vAcc"] = .double(verticalAccuracy) }
        if let speed { o["speed"] = .double(speed) }
        if let course { o["course"] = .double(course) }
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
