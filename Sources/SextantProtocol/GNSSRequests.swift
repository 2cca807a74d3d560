/// `gnss.profile`: sets the GNSS profile every source's fixes pass through (RULES N1–N6),
/// or `off`; its answer is the profile in force.
public struct GNSSProfileSet: RPCRequest, Equatable {
    public typealias Result = GNSSProfileState
    public static let method = Method.gnssProfile
    /// A spec, `PRESET[,EVENT…]` (`urban,tunnel@60+30`), or `off`.
    public var profile: String
    /// The generator's seed; the daemon's (`--seed`) when nil.
    public var seed: UInt64?

    /// The word that clears the profile.
    public static let off = "off"

    public init(profile: String, seed: UInt64? = nil) {
        self.profile = profile
        self.seed = seed
    }

    public init(_ p: Params) throws(RPCError) {
        profile = try p.requiredString("profile")
        seed = try p.seed("seed")
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("profile", profile)
        if let seed { o["seed"] = .int(Int64(seed)) }
        return o.json
    }
}

/// The GNSS profile in force: its spec (nil when off) and its seed; `status`'s `gnss` too,
/// with the simulated flag's setting.
public struct GNSSProfileState: WireValue, Equatable {
    public var profile: String?
    public var seed: UInt64
    /// `--simulated-flag`: `auto`, `always` or `never` (RULES N7).
    public var simulatedFlag: String

    public init(profile: String?, seed: UInt64, simulatedFlag: String) {
        self.profile = profile
        self.seed = seed
        self.simulatedFlag = simulatedFlag
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        profile = try p.string("profile")
        guard let seed = try p.seed("seed") else { throw .invalidParams("\"seed\" is required") }
        self.seed = seed
        simulatedFlag = try p.requiredString("simulatedFlag")
    }

    public var json: JSONValue {
        ["profile": profile.map { .string($0) } ?? .null, "seed": .int(Int64(seed)), "simulatedFlag": .string(simulatedFlag)]
    }
}

extension Params {
    /// A generator's seed: a whole number JSON carries exactly (0 to 2^53 − 1).
    public func seed(_ key: String) throws(RPCError) -> UInt64? {
        guard let value = try number(key) else { return nil }
        guard value >= 0, value <= GNSSProfileSet.largestSeed, value == value.rounded() else {
            throw .invalidParams("\"\(key)\" must be a whole number from 0 to \(Int64(GNSSProfileSet.largestSeed))")
        }
        return UInt64(value)
    }
}

extension GNSSProfileSet {
    /// 2^53 − 1: the largest whole number every JSON reader keeps exactly.
    public static let largestSeed = 9_007_199_254_740_991.0
}
