// The C math library (sin, atan2…): Foundation would cost every program that links
// SextantCore its 6 MiB of resident code.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// A decided change of device orientation (RULES O4): the hub sends it as a
/// `deviceOrientation` event stamped with the sample's time.
public struct DeviceOrientationChange: Sendable, Equatable {
    /// `unknown` for the first decision.
    public var previous: DeviceOrientation
    public var orientation: DeviceOrientation
    /// The time of the sample that decided it (trace time in replay).
    public var time: Timestamp

    public init(previous: DeviceOrientation, orientation: DeviceOrientation, time: Timestamp) {
        self.previous = previous
        self.orientation = orientation
        self.time = time
    }
}

/// Decides the device orientation from accelerometer samples (RULES O1–O5).
///
/// Feed it every accelerometer sample in time order; it answers with a change when the
/// decided orientation differs from the current one (O4), else nil. The four upright
/// orientations follow Android's WindowOrientationListener (O2): a low-pass filter, tilt
/// and orientation angles in whole degrees, per-orientation tilt limits, a hysteresis gap
/// against the last upright decision, and a settle time plus three hold-offs (after lying
/// flat, after a swing, after acceleration) before a proposal becomes a decision.
/// faceUp and faceDown have a rule of their own (O3).
///
/// Decisions depend on the samples and their timestamps alone (O5): all durations are
/// integer nanoseconds of sample time, nothing reads a clock, and the tilt history is kept
/// by time rather than by sample count, so the sample rate does not change the rules.
public struct OrientationJudge: Sendable {
    /// The current device orientation: `unknown` until the first decision.
    public private(set) var orientation: DeviceOrientation = .unknown
    /// The last upright orientation decided, nil before the first (O2's hysteresis
    /// reference; O6 and P4 read it while the device lies flat).
    public private(set) var lastUprightOrientation: DeviceOrientation?

    private var filter = GravityFilter()
    private var tilts = TiltHistory()
    /// O2: whether the device is held above the head, screen down.
    private var overhead = false
    /// O2: the upright orientation the current sample points to, and since when.
    private var predicted: (rotation: UprightRotation, since: Int64)?
    /// O2: the predicted rotation once it passed the settle time and the hold-offs; it
    /// stays while a newer prediction is still settling, and goes with the prediction.
    private var proposal: UprightRotation?
    /// O2's hold-offs: the last sample time at which each condition held.
    private var lastFlat: Int64?
    private var lastSwing: Int64?
    private var lastAcceleration: Int64?
    private var face = FaceDetector()

    public init() {}

    /// Judges one sample (device frame, m/s²) taken at `time`.
    /// A reading with a component not finite or over 10⁶ m/s² is ignored: it would make
    /// the filter's sums infinite. (Sources refuse far less: `Acceleration.problem`; the
    /// tests' step samples at 1 kHz reach 2000 m/s².)
    /// - Returns: the change to report when the decision differs from `orientation` (O4).
    public mutating func judge(_ acceleration: Acceleration, at time: Timestamp) -> DeviceOrientationChange? {
        let a = acceleration
        guard [a.x, a.y, a.z].allSatisfy({ $0.isFinite && abs($0) <= 1e6 }) else { return nil }
        let now = time.nanoseconds
        guard let filtered = filter.feed(acceleration, at: now) else {
            // The first sample after a (re)start only seeds the filter: everything learnt
            // from the samples before the gap is forgotten, but not what was decided.
            restartJudgement()
            return nil
        }
        let faceDecision = judgeFiltered(filtered, at: now)
        if predicted == nil {
            proposal = nil
        } else if let predicted, holdOffsHavePassed(for: predicted, at: now) {
            proposal = predicted.rotation
        }

        if let faceDecision {
            return decide(faceDecision, at: time)
        }
        // O3: while the device still lies face up (down), O2 has no say.
        if face.latched == nil, let proposal {
            lastUprightOrientation = proposal.deviceOrientation
            return decide(proposal.deviceOrientation, at: time)
        }
        return nil
    }

    // MARK: - O2 and O3 on the filtered vector

    /// Updates the prediction, the hold-off times and the face detector from one filtered
    /// sample; returns faceUp or faceDown when O3 decides it at this sample.
    private mutating func judgeFiltered(_ f: Acceleration, at now: Int64) -> DeviceOrientation? {
        typealias C = OrientationConstants
        let magnitude = f.magnitude
        guard magnitude >= C.nearZeroMagnitude else {
            // Free fall or a dead sensor: no direction to judge.
            predicted = nil
            face.interrupt()
            return nil
        }
        if abs(magnitude - Acceleration.standardGravity) > C.accelerationTolerance {
            lastAcceleration = now
        }
        let tilt = roundHalfUp(asin(f.z / magnitude) * 180 / .pi)
        tilts.append(tilt, at: now)
        if tilts.isFlat(at: now) { lastFlat = now }
        if tilts.isSwinging(at: now) { lastSwing = now }
        if tilt <= C.overheadEnterTilt {
            overhead = true
        } else if tilt >= C.overheadExitTilt {
            overhead = false
        }
        let faceDecision = face.feed(tilt: tilt, at: now)

        guard !overhead, abs(tilt) <= C.maxTilt else {
            predicted = nil
            return faceDecision
        }
        let angle = orientationAngle(f)
        let nearest = UprightRotation(nearestTo: angle)
        if nearest.tiltLimits.contains(tilt), isOutsideHysteresisGap(nearest, angle: angle) {
            if predicted?.rotation != nearest { predicted = (nearest, now) }
        } else {
            predicted = nil
        }
        return faceDecision
    }

    /// O2: a = round(-atan2(-x, y)) in degrees, 0-359; 0 is portrait, 90 landscapeLeft.
    private func orientationAngle(_ f: Acceleration) -> Int {
        let angle = roundHalfUp(-atan2(-f.x, f.y) * 180 / .pi)
        return angle < 0 ? angle + 360 : angle
    }

    /// O2's 45° gap against the last upright decision: a neighbour of the current upright
    /// orientation must be reached 22° past the sector edge. The opposite has no gap.
    private func isOutsideHysteresisGap(_ candidate: UprightRotation, angle: Int) -> Bool {
        guard let current = lastUprightOrientation.flatMap(UprightRotation.init(_:)) else { return true }
        let r = candidate.rawValue
        let halfGap = OrientationConstants.adjacentAngleGap / 2
        if candidate == current || candidate == current.next {
            let lowerBound = r * 90 - 45 + halfGap
            if r == 0 ? (angle >= 315 && angle < lowerBound + 360) : angle < lowerBound { return false }
        }
        if candidate == current || candidate == current.previous {
            let upperBound = r * 90 + 45 - halfGap
            if r == 0 ? (angle <= 45 && angle > upperBound) : angle > upperBound { return false }
        }
        return true
    }

    /// O2: stable for 40 ms, and the flat, swing and acceleration hold-offs over.
    private func holdOffsHavePassed(for predicted: (rotation: UprightRotation, since: Int64), at now: Int64) -> Bool {
        typealias C = OrientationConstants
        func over(_ since: Int64?, _ holdOff: Int64) -> Bool { since.map { hasPassed(holdOff, since: $0, at: now) } ?? true }
        return hasPassed(C.settleTime, since: predicted.since, at: now)
            && over(lastFlat, C.holdOffAfterFlat)
            && over(lastSwing, C.holdOffAfterSwing)
            && over(lastAcceleration, C.holdOffAfterAcceleration)
    }

    private mutating func restartJudgement() {
        tilts = TiltHistory()
        overhead = false
        predicted = nil
        proposal = nil
        lastFlat = nil
        lastSwing = nil
        lastAcceleration = nil
        face = FaceDetector()
    }

    /// O4: a decision is reported only when it changes the device orientation.
    private mutating func decide(_ decision: DeviceOrientation, at time: Timestamp) -> DeviceOrientationChange? {
        guard decision != orientation else { return nil }
        defer { orientation = decision }
        return DeviceOrientationChange(previous: orientation, orientation: decision, time: time)
    }
}

/// O2's constants, named as RULES gives them. Times in nanoseconds.
enum OrientationConstants {
    static let filterTimeConstant: Int64 = 200_000_000
    static let maxFilterGap: Int64 = 1_000_000_000
    static let nearZeroMagnitude = 1.0
    static let accelerationTolerance = 4.0
    static let maxTilt = 80
    static let overheadEnterTilt = -40
    static let overheadExitTilt = -15
    static let adjacentAngleGap = 45
    static let settleTime: Int64 = 40_000_000
    static let flatTilt = 80
    static let flatTime: Int64 = 1_000_000_000
    static let holdOffAfterFlat: Int64 = 500_000_000
    static let swingTiltDelta = 20
    static let swingTime: Int64 = 300_000_000
    static let holdOffAfterSwing: Int64 = 300_000_000
    static let holdOffAfterAcceleration: Int64 = 500_000_000
    // O3.
    static let faceTilt = 80
    static let faceTime: Int64 = 500_000_000
    static let faceExitTilt = 70
}

/// Rounds half up (toward +∞), as RULES O2 asks for tilt and orientation angles.
@inline(__always)
/// Whether `duration` has passed from `since` to `now`. Checked: false while `since +
/// duration` lies past the last instant an `Int64` holds (sample times come from outside).
func hasPassed(_ duration: Int64, since: Int64, at now: Int64) -> Bool {
    let (end, overflow) = since.addingReportingOverflow(duration)
    return !overflow && now >= end
}

func roundHalfUp(_ degrees: Double) -> Int { Int((degrees + 0.5).rounded(.down)) }

/// The four upright orientations in O2's numbering, which counts quarter turns of the
/// orientation angle: 0 portrait, 1 landscapeLeft, 2 portraitUpsideDown, 3 landscapeRight.
enum UprightRotation: Int, Sendable {
    case portrait = 0, landscapeLeft, portraitUpsideDown, landscapeRight

    /// O2: r = ((a + 45) div 90) mod 4.
    init(nearestTo angle: Int) { self.init(rawValue: (angle + 45) / 90 % 4)! }

    init?(_ orientation: DeviceOrientation) {
        switch orientation {
        case .portrait: self = .portrait
        case .landscapeLeft: self = .landscapeLeft
        case .portraitUpsideDown: self = .portraitUpsideDown
        case .landscapeRight: self = .landscapeRight
        case .unknown, .faceUp, .faceDown: return nil
        }
    }

    var deviceOrientation: DeviceOrientation {
        switch self {
        case .portrait: return .portrait
        case .landscapeLeft: return .landscapeLeft
        case .portraitUpsideDown: return .portraitUpsideDown
        case .landscapeRight: return .landscapeRight
        }
    }

    /// c + 1 and c + 3 (mod 4) in O2's hysteresis rule.
    var next: UprightRotation { UprightRotation(rawValue: (rawValue + 1) % 4)! }
    var previous: UprightRotation { UprightRotation(rawValue: (rawValue + 3) % 4)! }

    /// O2: the tilts, in whole degrees, at which this orientation may be proposed.
    var tiltLimits: ClosedRange<Int> {
        switch self {
        case .portrait: return -25...70
        case .landscapeLeft, .landscapeRight: return -25...65
        case .portraitUpsideDown: return -25...60
        }
    }
}

/// O2's low-pass filter of the acceleration, time constant 200 ms.
struct GravityFilter: Sendable {
    private var last: (value: Acceleration, time: Int64)?

    /// Filters one sample. Returns nil when the sample only seeds the filter: the first
    /// one, one after a gap over 1000 ms, or one older than its predecessor.
    mutating func feed(_ sample: Acceleration, at now: Int64) -> Acceleration? {
        // Checked: sample times come from outside, and may be centuries apart.
        guard let last, now >= last.time, case (let gap, false) = now.subtractingReportingOverflow(last.time),
            gap <= OrientationConstants.maxFilterGap
        else {
            self.last = (sample, now)
            return nil
        }
        let dt = Double(gap)
        let alpha = dt / (Double(OrientationConstants.filterTimeConstant) + dt)
        let f = Acceleration(
            x: last.value.x + alpha * (sample.x - last.value.x),
            y: last.value.y + alpha * (sample.y - last.value.y),
            z: last.value.z + alpha * (sample.z - last.value.z))
        self.last = (f, now)
        return f
    }
}

/// The tilt history O2's flat and swing conditions read, kept by time.
///
/// Flat (tilt ≥ 80 held for 1000 ms) only needs the start of the current run of flat
/// tilts. A swing (tilt rising ≥ 20° within 300 ms) needs the lowest tilt of the last
/// 300 ms: a monotonic queue holds the candidates for that minimum, oldest first, each
/// lower than the next, so the minimum is the oldest one still inside the window.
struct TiltHistory: Sendable {
    private var flatSince: Int64?
    private var lowest: [(time: Int64, tilt: Int)] = []
    private var head = 0
    private var newestTilt = 0

    mutating func append(_ tilt: Int, at now: Int64) {
        if tilt >= OrientationConstants.flatTilt {
            if flatSince == nil { flatSince = now }
        } else {
            flatSince = nil
        }
        while lowest.count > head, lowest[lowest.count - 1].tilt >= tilt { lowest.removeLast() }
        lowest.append((now, tilt))
        newestTilt = tilt
        if head > 64, head * 2 > lowest.count {
            lowest.removeFirst(head)
            head = 0
        }
    }

    /// Every tilt since at least 1000 ms ago has been ≥ 80.
    func isFlat(at now: Int64) -> Bool {
        flatSince.map { hasPassed(OrientationConstants.flatTime, since: $0, at: now) } ?? false
    }

    /// Some tilt of the last 300 ms (inclusive) lies 20° or more below the newest.
    mutating func isSwinging(at now: Int64) -> Bool {
        while head < lowest.count, hasPassed(OrientationConstants.swingTime + 1, since: lowest[head].time, at: now) { head += 1 }
        guard head < lowest.count else { return false }
        return lowest[head].tilt + OrientationConstants.swingTiltDelta <= newestTilt
    }
}

/// RULES O3: faceUp after 500 ms of tilts ≥ 80 (faceDown: ≤ -80), apart from O2's settle
/// time and hold-offs. Once decided the state holds (latched) until the tilt falls under
/// 70 (rises above -70); while it holds, O2 decides nothing.
struct FaceDetector: Sendable {
    /// faceUp or faceDown while decided and not yet left.
    private(set) var latched: DeviceOrientation?
    private var run: (face: DeviceOrientation, since: Int64)?

    /// Returns faceUp or faceDown when this sample completes 500 ms of it.
    mutating func feed(tilt: Int, at now: Int64) -> DeviceOrientation? {
        typealias C = OrientationConstants
        if latched == .faceUp, tilt < C.faceExitTilt { latched = nil }
        if latched == .faceDown, tilt > -C.faceExitTilt { latched = nil }

        let face: DeviceOrientation? =
            tilt >= C.faceTilt ? .faceUp : tilt <= -C.faceTilt ? .faceDown : nil
        guard let face else {
            run = nil
            return nil
        }
        if run?.face != face { run = (face, now) }
        guard latched != face, let run, hasPassed(C.faceTime, since: run.since, at: now) else { return nil }
        latched = face
        return face
    }

    /// A sample without a usable tilt breaks the run; it does not end a latched face.
    mutating func interrupt() { run = nil }
}
