/// How fast a replay runs: a factor of real time, or `max`, as fast as the clients read.
///
/// Read and written here only: `sextantd --speed`, sextantctl's `--speed` and the
/// `speed` member of `replay.start` all go through ``init(parsing:)`` or ``init(json:)``.
public enum ReplaySpeed: Sendable, Equatable, CustomStringConvertible {
    case factor(Double)
    case max

    /// The slowest and fastest factors the daemon plays: slower than a thousandth of real
    /// time a second of trace lasts over a quarter of an hour; faster than a million, a day
    /// of trace lasts under a tenth of a second, which is `max` in all but name.
    public static let slowest = 0.001
    public static let fastest = 1_000_000.0
    public static let supportedFactors = slowest...fastest

    /// What the daemon says when a speed is not one it plays.
    public static let expected = "\"max\" or a number from \(slowest) to \(fastest)"

    /// What sextantd and sextantctl say of a `--speed` that ``init(parsing:)`` refuses: the
    /// same range as the daemon's answer to `replay.start`.
    public static let optionProblem = "--speed must be \(expected)"

    /// A factor within ``supportedFactors``, or nil.
    public init?(factor: Double) {
        guard factor.isFinite, Self.supportedFactors.contains(factor) else { return nil }
        self = .factor(factor)
    }

    /// `max` or a factor within ``supportedFactors``, as a command line gives it; nil for
    /// anything else, so that a command line refuses what the daemon would.
    public init?(parsing text: String) {
        if text == "max" {
            self = .max
            return
        }
        guard let factor = Double(text) else { return nil }
        self.init(factor: factor)
    }

    /// `replay.start`'s `speed`: absent or null is real time, `"max"`, or a supported factor.
    public init(json: JSONValue?) throws(RPCError) {
        switch json {
        case .none, .some(.null): self = .factor(1)
        case .some(.string("max")): self = .max
        case .some(let value):
            guard let factor = value.doubleValue, let speed = ReplaySpeed(factor: factor) else {
                throw .invalidParams("\"speed\" must be \(Self.expected)")
            }
            self = speed
        }
    }

    /// Whether the daemon plays at this speed.
    public var isSupported: Bool {
        switch self {
        case .max: return true
        case .factor(let factor): return factor.isFinite && Self.supportedFactors.contains(factor)
        }
    }

    public var json: JSONValue {
        switch self {
        case .factor(let f): return .double(f)
        case .max: return "max"
        }
    }

    /// `max`, or the factor as the command line takes it (`2`, `0.5`).
    public var description: String {
        switch self {
        case .max: return "max"
        case .factor: return json.serialized()
        }
    }
}
