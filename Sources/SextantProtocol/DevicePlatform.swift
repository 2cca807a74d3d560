/// Which phone the daemon plays (`sextantd --platform`): the permission flows, timers and
/// delivery rules the engines decide by (docs/platforms.md). One per daemon, stored in its
/// state directory, so that a farm runs both kinds side by side, each on its own directory.
public enum DevicePlatform: Sendable, Hashable {
    /// iOS: RULES L1–L12 and the I rules.
    case ios
    /// Android at an API level: the AN rules, some of which depend on the level (the
    /// background permission became a request of its own at 30, approximate location at 31).
    case android(api: Int)

    /// The API levels whose rules the Android profile models: 29 (Android 10, the
    /// three-button dialog) to 36 (Android 16, the newest released level).
    public static let androidAPIs = 29...36
    public static let newestAndroidAPI = androidAPIs.upperBound

    /// `ios` or `android`, as `--platform` takes it and `status`/`hello` say it.
    public var name: String {
        switch self {
        case .ios: return "ios"
        case .android: return "android"
        }
    }

    public var androidAPI: Int? {
        if case .android(let api) = self { return api }
        return nil
    }

    /// The platform `--platform NAME [--android-api N]` asks for, or why not.
    public static func parse(name: String, androidAPI: Int?) -> Result<DevicePlatform, PlatformProblem> {
        switch name {
        case "ios":
            guard androidAPI == nil else { return .failure(PlatformProblem("--android-api applies only to --platform android")) }
            return .success(.ios)
        case "android":
            let api = androidAPI ?? newestAndroidAPI
            guard androidAPIs.contains(api) else {
                return .failure(PlatformProblem("--android-api \(api) is not modelled: give \(androidAPIs.lowerBound)…\(androidAPIs.upperBound)"))
            }
            return .success(.android(api: api))
        default:
            return .failure(PlatformProblem("--platform \(name) is not a platform: give ios or android"))
        }
    }

    /// As the store keeps it: `ios`, `android:36`.
    public var storedValue: String {
        switch self {
        case .ios: return "ios"
        case .android(let api): return "android:\(api)"
        }
    }

    public init?(storedValue: String) {
        if storedValue == "ios" {
            self = .ios
            return
        }
        let parts = storedValue.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "android", let api = Int(parts[1]), Self.androidAPIs.contains(api) else { return nil }
        self = .android(api: api)
    }

    /// `{"name": "android", "androidApi": 36}` in `status`; `hello` says the same members.
    public var json: JSONValue {
        var o = WireObject()
        o.set("name", name)
        if let androidAPI { o["androidApi"] = .int(Int64(androidAPI)) }
        return o.json
    }
}

/// Why a `--platform` was refused, said as the daemon prints it.
public struct PlatformProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
