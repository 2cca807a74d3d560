import SextantCore
import SextantProtocol

/// The heading over a trace as the daemon decides it: the daemon's own `HeadingEngine`
/// (RULES H1–H5) over the trace's magnetometer and compass samples, with the accelerometer's
/// latest reading as gravity (H1) and the World Magnetic Model's field at the latest fix
/// drawn (H3, H4); the true heading, where a fix is known, the compass's own or magnetic +
/// the declination there (H6), as a full-accuracy app in the natural orientation gets it.
struct HeadingTimeline {
    struct Point: Equatable {
        /// Seconds from the trace's start.
        var t: Double
        /// Degrees clockwise from north, 0 ..< 360.
        var degrees: Double
    }

    var magnetic: [Point] = []
    var trueHeading: [Point] = []
    /// Stretches during which the engine asks for calibration (H5), labelled `calibrate`,
    /// and the clean ones after them.
    var calibration: [TimelineSegment] = []
    /// Whether the trace has a magnetometer or compass sample at all.
    var hasSamples = false

    static let calibrateLabel = "calibrate", cleanLabel = "clean"

    /// `fixes`: the fixes the plot draws (the reported ones under a GNSS profile), in time order.
    init(_ trace: Trace, fixes: [(offset: Int64, fix: LocationFix)]) {
        var engine = HeadingEngine()
        var model = MagneticModelCache()
        var lastFix: LocationFix?
        var nextFix = 0
        var calibrationLane = LaneBuilder()
        for index in trace.samples.indices {
            let offset = trace.samples[index].offset
            while nextFix < fixes.count, fixes[nextFix].offset <= offset {
                lastFix = fixes[nextFix].fix
                nextFix += 1
            }
            guard case .reading(let reading) = trace.sample(at: index).value else { continue }
            let time = trace.sample(at: index).time
            let expected = lastFix.map { model.elements(latitude: $0.latitude, longitude: $0.longitude, height: $0.altitude ?? 0, at: time) }
            engine.expected = expected
            let decision: HeadingDecision?
            if let gravity = Acceleration(reading) {
                engine.gravity(gravity)
                continue
            } else if let field = MagneticField(reading) {
                decision = engine.judge(field, at: time)
            } else if let compass = CompassReading(reading) {
                decision = engine.judge(compass, at: time)
            } else {
                continue
            }
            hasSamples = true
            guard let decision else { continue }
            let t = Double(offset) / 1e9
            magnetic.append(Point(t: t, degrees: decision.heading.magnetic))
            let declined = expected.map { HeadingMath.normalized(decision.heading.magnetic + $0.declination) }
            if let degrees = decision.heading.reportedTrue.map(HeadingMath.normalized) ?? declined {
                trueHeading.append(Point(t: t, degrees: degrees))
            }
            if let needed = decision.calibrationChanged {
                calibrationLane.change(to: needed ? Self.calibrateLabel : Self.cleanLabel, at: t)
            }
        }
        calibration = calibrationLane.finish(at: trace.duration)
    }
}
