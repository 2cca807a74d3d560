import NIOCore
import SextantCore
import SextantProtocol

// The location service's events as the wire carries them (PROTOCOL.md `location`,
// `locationUnavailable`): the fan-out hands them to the sessions (``LocationDelivery``).

/// A fix the app may have, already reduced when its accuracy is (RULES L10).
package struct LocationEvent: AppEventKind {
    package let fix: LocationFix
    let accuracy: LocationAccuracy
    init(_ fix: LocationFix, _ accuracy: LocationAccuracy) {
        self.fix = fix
        self.accuracy = accuracy
    }
    package static var topic: AppTopic { .location }
    package static var isLocationDerived: Bool { true }
    package var outboundKind: OutboundKind { .location }
    package var method: String { Event.location }
    package var params: JSONValue { fix.json(accuracy: accuracy) }

    /// Straight into bytes (``LocationLine``): the line a replay at `max` is made of.
    package func jsonRPCLine(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: LocationLine.capacity)
        LocationLine.write(fix, accuracy: accuracy, into: &buffer)
        return buffer
    }
}

/// The GPS source is gone: told once per loss to each streaming session. It says where
/// no fix comes from, not where the device is.
package struct LocationUnavailableEvent: AppEventKind {
    let reason: String
    package static var topic: AppTopic { .location }
    package var outboundKind: OutboundKind { .essential }
    package var method: String { Event.locationUnavailable }
    package var params: JSONValue { ["reason": .string(reason)] }
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
