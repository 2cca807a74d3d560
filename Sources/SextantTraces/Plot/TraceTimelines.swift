import SextantCore
import SextantProtocol

/// A stretch of time during which one lane of the plot shows one state.
struct TimelineSegment: Equatable {
    /// Seconds from the trace's start.
    var from: Double
    var to: Double
    var label: String
}

/// The states a trace's sensors lead to over time, as the daemon would decide them: the
/// device orientation from the real `OrientationJudge` (RULES O1–O5) over the
/// accelerometer samples, the posture from the real `PostureEngine` (P1–P4) over the
/// hinge samples, and the GPS state as the `gps` samples and the fixes say it (`ok` from
/// each fix on, until a `gps` sample says otherwise; `noFix` from a true fix a GNSS profile
/// reported none for, N4).
struct TraceTimelines {
    var orientation: [TimelineSegment] = []
    var posture: [TimelineSegment] = []
    var gps: [TimelineSegment] = []
    /// Whether the trace has samples of each kind at all (an empty lane then says so).
    var hasAccelerometer = false
    var hasHinge = false
    var hasGPSState = false

    /// `withoutFix`: the indices of the location samples a GNSS profile reported no fix for.
    init(_ trace: Trace, withoutFix: Set<Int> = []) {
        var judge = OrientationJudge()
        var postureEngine = PostureEngine()
        var orientationLane = LaneBuilder(), postureLane = LaneBuilder(), gpsLane = LaneBuilder()
        for index in trace.samples.indices {
            let sample = trace.sample(at: index)
            let t = trace.samples[index].t
            switch sample.value {
            case .reading(let reading):
                // The plot draws the lanes of the engines it runs; a reading of another
                // kind has no lane here.
                if let a = Acceleration(reading) {
                    hasAccelerometer = true
                    if let change = judge.judge(a, at: sample.time) { orientationLane.change(to: change.orientation.rawValue, at: t) }
                } else if let angle = reading.hingeAngle {
                    hasHinge = true
                    if let change = postureEngine.judge(hingeAngle: angle, at: sample.time, lastUprightDeviceOrientation: judge.lastUprightOrientation) {
                        postureLane.change(to: change.state.rawValue, at: t)
                    }
                }
            case .record:
                break
            case .gps(let signal):
                hasGPSState = true
                gpsLane.change(to: signal.rawValue, at: t)
            case .location:
                // A fix means the GPS delivers: what the daemon's `status` then says
                // (any loss is over at the next fix).
                gpsLane.change(to: (withoutFix.contains(index) ? GPSSignal.noFix : GPSSignal.ok).rawValue, at: t)
            }
        }
        orientation = orientationLane.finish(at: trace.duration)
        posture = postureLane.finish(at: trace.duration)
        gps = gpsLane.finish(at: trace.duration)
    }
}

/// Collects a lane's segments from its changes: a segment runs from one change to the next.
struct LaneBuilder {
    private var segments: [TimelineSegment] = []
    private var current: (label: String, since: Double)?

    mutating func change(to label: String, at t: Double) {
        if let current, current.since == t {
            // Two states at one instant: the later one holds, and a segment of no length is not drawn.
            if let last = segments.last, last.label == label, last.to == t {
                self.current = (label, segments.removeLast().from)
            } else {
                self.current = (label, t)
            }
            return
        }
        if let current {
            guard current.label != label else { return }
            segments.append(TimelineSegment(from: current.since, to: t, label: current.label))
        }
        current = (label, t)
    }

    func finish(at end: Double) -> [TimelineSegment] {
        guard let current else { return segments }
        return segments + [TimelineSegment(from: current.since, to: max(end, current.since), label: current.label)]
    }
}
