/// The wire's names and error codes as one value that can be listed: what a client in
/// another language needs to speak the protocol. The Python client's constants
/// (`clients/python/src/sextant/_protocol.py`) are rendered from it.
public enum ProtocolTable {
    /// An enum of the protocol: its name in sextant-protocol(7) and its wire values.
    public struct Names: Sendable, Equatable {
        public var name: String
        public var values: [String]

        init<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) where T.RawValue == String {
            self.name = name
            values = T.allCases.map(\.rawValue)
        }
    }

    public static let methods = Method.all
    public static let events = Event.ordered
    public static let errors = RPCErrorCode.allCases

    /// The enums, each under the plural a client names its values by.
    public static let enums: [Names] = [
        Names("authorizationStatuses", AuthorizationStatus.self),
        Names("locationAccuracies", LocationAccuracy.self),
        Names("appStates", AppState.self),
        Names("authorizationLevels", AuthorizationLevel.self),
        Names("promptChoices", PromptChoice.self),
        Names("promptKinds", PromptKind.self),
        Names("deviceOrientations", DeviceOrientation.self),
        Names("interfaceOrientations", InterfaceOrientation.self),
        Names("postureStates", PostureState.self),
        Names("foldDirections", FoldDirection.self),
        Names("deviceProfiles", DeviceProfile.self),
        Names("replayStates", ReplayState.self),
        Names("timeZoneReasons", TimeZoneReason.self),
        Names("activityTypes", ActivityType.self),
        Names("activityConfidences", ActivityConfidence.self),
        Names("activityTransitionKinds", ActivityTransitionKind.self),
        Names("motionAuthorizationStatuses", MotionAuthorizationStatus.self),
    ]

    /// The whole table as JSON: `{methods, events, errors: [{code, name, meaning}], enums: {name: [values]}}`.
    public static var json: JSONValue {
        var enumMembers: [String: JSONValue] = [:]
        for names in enums { enumMembers[names.name] = .array(names.values.map(JSONValue.string)) }
        return [
            "protocol": .int(Int64(sextantProtocolVersion)),
            "methods": .array(methods.map(JSONValue.string)),
            "events": .array(events.map(JSONValue.string)),
            "errors": .array(errors.map { ["code": .int(Int64($0.rawValue)), "name": .string($0.name), "meaning": .string($0.meaning)] }),
            "enums": .object(enumMembers),
            "replaySpeed": ["max": "max", "slowest": .double(ReplaySpeed.slowest), "fastest": .double(ReplaySpeed.fastest)],
        ]
    }
}
