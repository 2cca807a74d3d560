/// What an iOS app declares in its Info.plist that changes its location authorization,
/// said at `hello` (docs/platforms.md I9–I12). Bounded: a client cannot grow the daemon
/// with it.
public struct IOSAppDeclaration: Sendable, Equatable {
    /// `NSLocationTemporaryUsageDescriptionDictionary`: purpose key → the text its prompt shows.
    public var temporaryUsageDescriptions: [String: String]
    /// `NSLocationDefaultAccuracyReduced`: the authorization prompt defaults to approximate.
    public var defaultAccuracyReduced: Bool
    /// `UIBackgroundModes`: `location` lets the app have locations in the background (I12).
    /// Nil when the app did not say (every client from before platforms): not modelled, the
    /// app is served in the background as its authorization allows.
    public var backgroundModes: [String]?

    public static let maxPurposeKeys = 32
    public static let maxTextLength = 1024
    public static let maxBackgroundModes = 16

    public init(temporaryUsageDescriptions: [String: String] = [:], defaultAccuracyReduced: Bool = false, backgroundModes: [String]? = nil) {
        self.temporaryUsageDescriptions = temporaryUsageDescriptions
        self.defaultAccuracyReduced = defaultAccuracyReduced
        self.backgroundModes = backgroundModes
    }

    /// Reads `hello`'s members `temporaryUsageDescriptions`, `defaultAccuracyReduced` and
    /// `backgroundModes`, each optional.
    public init(_ p: Params) throws(RPCError) {
        self.init()
        if let descriptions = try p.object("temporaryUsageDescriptions") {
            guard descriptions.members.count <= Self.maxPurposeKeys else {
                throw .invalidParams("\"temporaryUsageDescriptions\" holds at most \(Self.maxPurposeKeys) purpose keys")
            }
            for key in descriptions.members.keys {
                let text = try descriptions.requiredString(key)
                guard !key.isEmpty, key.utf8.count <= 255, text.utf8.count <= Self.maxTextLength else {
                    throw .invalidParams(
                        "\"temporaryUsageDescriptions\": a purpose key is 1-255 bytes and its text at most \(Self.maxTextLength) (\"\(key.prefix(40))\")")
                }
                temporaryUsageDescriptions[key] = text
            }
        }
        defaultAccuracyReduced = try p.bool("defaultAccuracyReduced") ?? false
        let modes = try p.stringList("backgroundModes")
        guard (modes?.count ?? 0) <= Self.maxBackgroundModes, (modes ?? []).allSatisfy({ !$0.isEmpty && $0.utf8.count <= 64 }) else {
            throw .invalidParams("\"backgroundModes\" is at most \(Self.maxBackgroundModes) names of 1-64 bytes, e.g. [\"location\"]")
        }
        backgroundModes = modes
    }

    /// Whether locations may reach the app in the background (I12): `UIBackgroundModes`
    /// holds `location`, or the app said nothing of its modes.
    public var allowsBackgroundLocation: Bool { backgroundModes?.contains("location") ?? true }

    /// The members as `hello` sends them; defaults left out.
    public var members: [String: JSONValue] {
        var o: [String: JSONValue] = [:]
        if !temporaryUsageDescriptions.isEmpty { o["temporaryUsageDescriptions"] = .object(temporaryUsageDescriptions.mapValues { .string($0) }) }
        if defaultAccuracyReduced { o["defaultAccuracyReduced"] = true }
        if let backgroundModes { o["backgroundModes"] = .array(backgroundModes.map { .string($0) }) }
        return o
    }
}

/// `authorization.requestTemporaryFullAccuracy`: full accuracy for one purpose, while the
/// app is in use (docs/platforms.md I9, I10); answered with the authorization once the
/// prompt is answered, or 1014 `promptDeclined`.
public struct AuthorizationRequestTemporaryFullAccuracy: RPCRequest, Equatable {
    public typealias Result = AuthorizationResult
    public static let method = Method.authorizationRequestTemporaryFullAccuracy
    public var purposeKey: String

    public init(purposeKey: String) { self.purposeKey = purposeKey }

    public init(_ p: Params) throws(RPCError) {
        purposeKey = try p.requiredString("purposeKey")
    }

    public var params: JSONValue { ["purposeKey": .string(purposeKey)] }
}
