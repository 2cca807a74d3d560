#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// A GNSS profile at work (RULES N1–N5): true fixes in, the fixes a receiver in that
/// environment would report out, or none (an outage, a time to first fix).
///
/// A value with no clock and no I/O: its state advances with the fixes' own times, so the
/// same seed gives the same fixes at any replay speed, paused or not. The error is a
/// first-order Gauss–Markov walk per axis (north, east, up); the reported accuracies are
/// the walk's current scale, so the true error is within `hAcc` about 68 % of the time.
public struct GNSSDegradation: Sendable {
    public let spec: GNSSProfileSpec
    public let seed: UInt64

    /// The first fix's time, in nanoseconds: `tunnel@` events count from it.
    private var origin: Int64?
    private var lastTime: Int64 = 0
    private var random: SeededGenerator
    /// The walk's current error, metres, and its variance on each horizontal axis and up.
    private var north = 0.0, east = 0.0, up = 0.0
    private var horizontalVariance = 0.0, verticalVariance = 0.0
    /// No fix before this time (a start's time to first fix).
    private var acquiringUntil: Int64 = 0
    /// A random outage's end, re-acquisition included.
    private var outageUntil: Int64?
    /// A multipath jump in force: its offset in metres and its end.
    private var jump: (north: Double, east: Double, until: Int64)?
    /// The last fix offered got no fix: the next one is a re-acquisition.
    private var withoutFix = true
    private var seekPending = false
    /// What the receiver saw of the sky at the last fix offered (N8).
    public private(set) var reception = SkyReception.acquiring

    public init(spec: GNSSProfileSpec, seed: UInt64) {
        self.spec = spec
        self.seed = seed
        self.random = SeededGenerator(seed: seed)
    }

    /// The source jumped in time (a replay's seek): the next fix is a hot start at its own
    /// time, with the generator seeded from the seed and that time (N5), so what follows
    /// does not depend on what was played before.
    public mutating func seek() { seekPending = true }

    /// The fix a receiver would report for `truth`, or nil while it has none.
    public mutating func report(_ truth: LocationFix) -> LocationFix? {
        let now = truth.time.nanoseconds
        if origin == nil {
            origin = now
            start(at: now, timeToFirstFix: spec.coldStart ? spec.preset.coldStart : spec.preset.hotStart)
        } else if seekPending || now < lastTime {
            start(at: now, timeToFirstFix: spec.preset.hotStart)
        } else {
            advance(by: Double(now - lastTime) / 1e9, to: now)
        }
        lastTime = now
        reception = reception(at: now)
        guard reception == .fix else {
            withoutFix = true
            return nil
        }
        if withoutFix { reacquire() }
        return reported(truth)
    }

    /// The walk's horizontal and vertical 68 % radii now, metres (the accuracies it reports).
    public var accuracies: (horizontal: Double, vertical: Double) {
        let walk = GNSSPreset.horizontalCoverage * horizontalVariance.squareRoot()
        guard let jump else { return (walk, verticalVariance.squareRoot()) }
        return ((jump.north * jump.north + jump.east * jump.east + walk * walk).squareRoot(), verticalVariance.squareRoot())
    }

    private mutating func start(at now: Int64, timeToFirstFix: Double) {
        seekPending = false
        var mixer = SeededGenerator(seed: UInt64(bitPattern: now))
        random = SeededGenerator(seed: seed ^ mixer.next())
        acquiringUntil = now.addingSeconds(timeToFirstFix)
        outageUntil = nil
        jump = nil
        withoutFix = true
    }

    /// The walk moves on by `seconds` (exact discretisation of the first-order process, N1),
    /// and multipath jumps and outages come and go.
    private mutating func advance(by seconds: Double, to now: Int64) {
        let preset = spec.preset
        let carried = exp(-seconds / preset.correlationTime)
        let fresh = (1 - carried * carried).squareRoot()
        north = carried * north + fresh * preset.horizontalSigma * random.gaussian()
        east = carried * east + fresh * preset.horizontalSigma * random.gaussian()
        up = carried * up + fresh * preset.verticalSigma * random.gaussian()
        horizontalVariance = carried * carried * horizontalVariance + (1 - carried * carried) * preset.horizontalSigma * preset.horizontalSigma
        verticalVariance = carried * carried * verticalVariance + (1 - carried * carried) * preset.verticalSigma * preset.verticalSigma
        if let ending = jump, now >= ending.until { jump = nil }
        if jump == nil, let multipath = preset.multipath, random.happens(rate: multipath.rate, within: seconds) {
            let size = random.uniform(in: multipath.size)
            let direction = random.uniform(in: 0...(2 * .pi))
            jump = (size * cos(direction), size * sin(direction), now.addingSeconds(random.uniform(in: multipath.duration)))
        }
        if let until = outageUntil, now >= until { outageUntil = nil }
        if outageUntil == nil, let outages = preset.outages, random.happens(rate: outages.rate, within: seconds) {
            outageUntil = now.addingSeconds(random.uniform(in: outages.duration) + preset.hotStart)
        }
    }

    /// Whether the receiver has a fix at `now`: not while acquiring, in a tunnel or an outage,
    /// nor for a hot start's time after either (N4); in a tunnel or an outage it sees no
    /// satellite, during the hot start after it sees them but uses none (N8).
    private func reception(at now: Int64) -> SkyReception {
        guard let origin else { return .acquiring }
        if outageUntil != nil { return .blocked }
        for tunnel in spec.tunnels {
            let start = origin.addingSeconds(tunnel.start)
            let end = start.addingSeconds(tunnel.duration)
            if now >= start, now < end { return .blocked }
            if now >= end, now < end.addingSeconds(spec.preset.hotStart) { return .acquiring }
        }
        return now >= acquiringUntil ? .fix : .acquiring
    }

    /// A new fix after none: the walk starts afresh at `reacquisitionVariance` times its
    /// variance and settles back with its correlation time (N4).
    private mutating func reacquire() {
        withoutFix = false
        let scale = GNSSPreset.reacquisitionVariance.squareRoot()
        north = scale * spec.preset.horizontalSigma * random.gaussian()
        east = scale * spec.preset.horizontalSigma * random.gaussian()
        up = scale * spec.preset.verticalSigma * random.gaussian()
        horizontalVariance = GNSSPreset.reacquisitionVariance * spec.preset.horizontalSigma * spec.preset.horizontalSigma
        verticalVariance = GNSSPreset.reacquisitionVariance * spec.preset.verticalSigma * spec.preset.verticalSigma
    }

    /// `truth` moved by the walk (and a jump), with the accuracies that track it; speed,
    /// course and time are the truth's.
    private func reported(_ truth: LocationFix) -> LocationFix {
        var fix = truth
        let offsetNorth = north + (jump?.north ?? 0)
        let offsetEast = east + (jump?.east ?? 0)
        let metresPerDegree = LocationFudger.metresPerDegreeLatitude
        fix.latitude = min(90, max(-90, truth.latitude + offsetNorth / metresPerDegree))
        let parallel = max(1e-6, cos(truth.latitude * .pi / 180))
        var longitude = truth.longitude + offsetEast / (metresPerDegree * parallel)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        fix.longitude = longitude
        let (horizontal, vertical) = accuracies
        fix.horizontalAccuracy = min(horizontal, LocationFix.maximumAccuracy)
        if let altitude = truth.altitude {
            let range = LocationFix.altitudeRange
            fix.altitude = min(range.upperBound, max(range.lowerBound, altitude + up))
            fix.verticalAccuracy = min(vertical, LocationFix.maximumAccuracy)
        }
        return fix
    }
}

extension Int64 {
    /// This many nanoseconds plus `seconds`, held within Int64.
    fileprivate func addingSeconds(_ seconds: Double) -> Int64 {
        let nanoseconds = (seconds * 1e9).rounded()
        let (sum, overflow) = addingReportingOverflow(nanoseconds < 9e18 ? Int64(nanoseconds) : .max)
        return overflow ? .max : sum
    }
}
