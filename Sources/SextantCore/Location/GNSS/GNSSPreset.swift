/// A GNSS environment's numbers (RULES N3): how large and how slow the position error is,
/// how long a fix takes to come, and what goes wrong there besides.
public struct GNSSPreset: Sendable, Equatable {
    /// `open-sky`, `urban`, `forest`, `indoor`.
    public var name: String
    /// The error's standard deviation on each horizontal axis (north, east), metres.
    public var horizontalSigma: Double
    /// The error's standard deviation upwards, metres.
    public var verticalSigma: Double
    /// The Gauss–Markov walk's correlation time, seconds: how slowly the error wanders.
    public var correlationTime: Double
    /// Seconds without a fix at a hot start: at the start, after a seek, after an outage.
    public var hotStart: Double
    /// Seconds without a fix at a cold start (the `cold-start` event).
    public var coldStart: Double
    /// Multipath: a jump of the reported position, off the walk, for a while.
    public var multipath: Episodes?
    /// Outages that come by themselves (besides `tunnel@` events).
    public var outages: Episodes?

    /// Episodes that come at random: `rate` a second on average, each of `size` (metres,
    /// for a jump) lasting `duration` seconds, both drawn uniformly.
    public struct Episodes: Sendable, Equatable {
        public var rate: Double
        public var size: ClosedRange<Double>
        public var duration: ClosedRange<Double>
    }

    /// The radius that holds a 2-D Gaussian's error 68 % of the time, in per-axis sigmas:
    /// √(−2 ln 0.32). `hAcc` is this times the error's current scale (N2).
    public static let horizontalCoverage = 1.5096
    /// After an outage the walk starts this many times its variance, and settles back (N4).
    public static let reacquisitionVariance = 4.0

    // The numbers of RULES N3, cited by the tests.
    public static let openSky = GNSSPreset(
        name: "open-sky", horizontalSigma: 1.5, verticalSigma: 3, correlationTime: 60, hotStart: 1, coldStart: 30)
    public static let urban = GNSSPreset(
        name: "urban", horizontalSigma: 6, verticalSigma: 10, correlationTime: 20, hotStart: 5, coldStart: 45,
        multipath: Episodes(rate: 1.0 / 45, size: 15...60, duration: 3...12))
    public static let forest = GNSSPreset(
        name: "forest", horizontalSigma: 4, verticalSigma: 7, correlationTime: 30, hotStart: 3, coldStart: 45)
    public static let indoor = GNSSPreset(
        name: "indoor", horizontalSigma: 20, verticalSigma: 25, correlationTime: 15, hotStart: 10, coldStart: 60,
        outages: Episodes(rate: 1.0 / 90, size: 0...0, duration: 10...40))

    public static let all = [openSky, urban, forest, indoor]

    public init(
        name: String, horizontalSigma: Double, verticalSigma: Double, correlationTime: Double, hotStart: Double,
        coldStart: Double, multipath: Episodes? = nil, outages: Episodes? = nil
    ) {
        self.name = name
        self.horizontalSigma = horizontalSigma
        self.verticalSigma = verticalSigma
        self.correlationTime = correlationTime
        self.hotStart = hotStart
        self.coldStart = coldStart
        self.multipath = multipath
        self.outages = outages
    }
}

/// What `--gnss-profile` says: a preset and its events, e.g. `urban,cold-start,tunnel@60+30`.
public struct GNSSProfileSpec: Sendable, Equatable, CustomStringConvertible {
    public var preset: GNSSPreset
    /// The first fix takes the preset's cold start, not its hot one.
    public var coldStart = false
    /// Outages at fixed times: seconds after the profile's origin (its first fix).
    public var tunnels: [Tunnel] = []

    public struct Tunnel: Sendable, Equatable {
        /// Seconds after the origin.
        public var start: Double
        public var duration: Double

        public init(start: Double, duration: Double) {
            self.start = start
            self.duration = duration
        }
    }

    public init(preset: GNSSPreset, coldStart: Bool = false, tunnels: [Tunnel] = []) {
        self.preset = preset
        self.coldStart = coldStart
        self.tunnels = tunnels
    }

    /// The spec as it is written: the preset, then its events.
    public var description: String {
        var parts = [preset.name]
        if coldStart { parts.append("cold-start") }
        for tunnel in tunnels { parts.append("tunnel@\(Self.seconds(tunnel.start))+\(Self.seconds(tunnel.duration))") }
        return parts.joined(separator: ",")
    }

    /// Reads `PRESET[,EVENT…]`; the error names the part that is wrong and what is allowed.
    public static func parse(_ text: String) -> Result<GNSSProfileSpec, GNSSProfileSpecError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        guard let name = parts.first, let preset = GNSSPreset.all.first(where: { $0.name == name }) else {
            return .failure(GNSSProfileSpecError("unknown GNSS preset '\(parts.first ?? "")': use one of \(presetNames)"))
        }
        var spec = GNSSProfileSpec(preset: preset)
        for event in parts.dropFirst() {
            if event == "cold-start" {
                spec.coldStart = true
            } else if event.hasPrefix("tunnel@"), let tunnel = tunnel(event.dropFirst("tunnel@".count)) {
                spec.tunnels.append(tunnel)
            } else {
                return .failure(GNSSProfileSpecError(
                    "unknown GNSS event '\(event)': use cold-start or tunnel@START+DURATION (seconds after the first fix)"))
            }
        }
        return .success(spec)
    }

    public static var presetNames: String { GNSSPreset.all.map(\.name).joined(separator: ", ") }

    private static func tunnel(_ text: Substring) -> Tunnel? {
        let halves = text.split(separator: "+", omittingEmptySubsequences: false)
        guard halves.count == 2, let start = Double(String(halves[0])), let duration = Double(String(halves[1])),
            start.isFinite, duration.isFinite, start >= 0, duration > 0, start + duration <= 1e9
        else { return nil }
        return Tunnel(start: start, duration: duration)
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value ? String(Int64(value)) : String(value)
    }
}

/// Why a `--gnss-profile` spec was refused.
public struct GNSSProfileSpecError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
