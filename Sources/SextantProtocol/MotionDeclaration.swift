/// What an app declares for its motion data, said at `hello` (docs/platforms.md AN40, AN41;
/// docs/motion.md A13–A16): iOS's Info.plist `NSMotionUsageDescription` and Android's
/// manifest `<uses-permission>` names. Bounded: a client cannot grow the daemon with it.
public struct MotionDeclaration: Sendable, Equatable {
    /// `NSMotionUsageDescription`: the text of the Motion & Fitness prompt. Nil when the app
    /// did not declare it: iOS then gives it no Motion & Fitness data (A14).
    public var motionUsageDescription: String?
    /// The manifest's permissions, without the `android.permission.` prefix
    /// (`HIGH_SAMPLING_RATE_SENSORS`, `ACTIVITY_RECOGNITION`). Nil when the app did not say.
    public var androidPermissions: Set<String>?

    public static let maxTextLength = 1024
    public static let maxPermissions = 64

    public init(motionUsageDescription: String? = nil, androidPermissions: Set<String>? = nil) {
        self.motionUsageDescription = motionUsageDescription
        self.androidPermissions = androidPermissions.map { Set($0.map(Self.shortName)) }
    }

    /// Reads `hello`'s members `motionUsageDescription` and `androidPermissions`, each optional.
    public init(_ p: Params) throws(RPCError) {
        self.init()
        if let text = try p.string("motionUsageDescription") {
            guard !text.isEmpty, text.utf8.count <= Self.maxTextLength else {
                throw .invalidParams("\"motionUsageDescription\" is the prompt's text: 1-\(Self.maxTextLength) bytes")
            }
            motionUsageDescription = text
        }
        if let names = try p.stringList("androidPermissions") {
            guard names.count <= Self.maxPermissions, names.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 128 }) else {
                throw .invalidParams(
                    "\"androidPermissions\" is at most \(Self.maxPermissions) names of 1-128 bytes, e.g. [\"HIGH_SAMPLING_RATE_SENSORS\"]")
            }
            androidPermissions = Set(names.map(Self.shortName))
        }
    }

    /// `android.permission.X` and `X` name the same permission.
    static func shortName(_ name: String) -> String {
        let prefix = "android.permission."
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    }

    /// Whether the manifest declares `permission` (short name); an app that said nothing declares nothing.
    public func declares(_ permission: String) -> Bool { androidPermissions?.contains(permission) ?? false }

    /// The members as `hello` sends them; what was not declared left out.
    public var members: [String: JSONValue] {
        var o: [String: JSONValue] = [:]
        if let motionUsageDescription { o["motionUsageDescription"] = .string(motionUsageDescription) }
        if let androidPermissions { o["androidPermissions"] = .array(androidPermissions.sorted().map { .string($0) }) }
        return o
    }
}
