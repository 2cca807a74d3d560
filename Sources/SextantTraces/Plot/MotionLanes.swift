import Foundation
import SextantCore
import SextantProtocol

/// The lanes of the motion and environment kinds a trace carries (issue 40.7): the
/// gyroscope's rate, the pressure, the light as lines; proximity and the recorded activity
/// as states; and, for any trace with two fixes, the steps the step counter (RULES A7) banks
/// over the fixes' true speed, as the activity service derives them and a pedometer app
/// would be told (recorded activity or none: the phone counts steps from the walk, not
/// from the activity reported). A kind the trace does not carry has no lane.
struct MotionLanes {
    /// A lane of numbers: a line from the smallest to the largest over the lane's height.
    struct Line {
        var unit: String
        var points: [(t: Double, value: Double)] = []
    }

    enum Content {
        case line(Line)
        case states([TimelineSegment])
    }

    static let gyroscopeLane = "gyroscope", pressureLane = "pressure", lightLane = "light"
    static let proximityLane = "proximity", activityLane = "activity", stepsLane = "steps"

    /// The lanes drawn, in this order: gyroscope, pressure, light, proximity, activity, steps.
    private(set) var lanes: [(name: String, content: Content)] = []

    init(_ trace: Trace) {
        var gyroscope = Line(unit: "rad/s"), pressure = Line(unit: "hPa"), light = Line(unit: "lux"), steps = Line(unit: "steps")
        var proximity = LaneBuilder(), activity = LaneBuilder()
        var hasProximity = false, hasActivity = false
        var stretches = FixStretches(), counter = StepCounter()
        for index in trace.samples.indices {
            let sample = trace.sample(at: index), t = trace.samples[index].t
            switch sample.value {
            case .reading(let reading):
                if let rate = RotationRate(reading) {
                    gyroscope.points.append((t, Vector3(rate.x, rate.y, rate.z).length))
                } else if let hPa = reading.hectopascals {
                    pressure.points.append((t, hPa))
                } else if let lux = reading.lux {
                    light.points.append((t, lux))
                } else if let near = reading.isNear {
                    hasProximity = true
                    proximity.change(to: near ? "near" : "far", at: t)
                }
            case .record(let record):
                guard let recorded = record.value(as: RecordedActivity.self) else { break }
                hasActivity = true
                let types = recorded.flags.types.map(\.rawValue)
                activity.change(to: types.isEmpty ? "unknown" : types.joined(separator: "+"), at: t)
            case .location(let fix):
                if let stretch = stretches.add(fix) {
                    _ = counter.add(metres: stretch.metres, speed: stretch.metres / stretch.seconds)
                    steps.points.append((t, Double(counter.steps)))
                }
            case .gps:
                break
            }
        }
        append(Self.gyroscopeLane, gyroscope)
        append(Self.pressureLane, pressure)
        append(Self.lightLane, light)
        if hasProximity { lanes.append((Self.proximityLane, .states(proximity.finish(at: trace.duration)))) }
        if hasActivity { lanes.append((Self.activityLane, .states(activity.finish(at: trace.duration)))) }
        append(Self.stepsLane, steps)
    }

    private mutating func append(_ name: String, _ line: Line) {
        if !line.points.isEmpty { lanes.append((name, .line(line))) }
    }

    var names: [String] { lanes.map(\.name) }
}

extension TracePlot {
    /// A motion lane: its states as the other lanes', or its numbers as a line over the
    /// lane, the smallest at its bottom, with the range written at its right end.
    func drawMotionLane(_ canvas: inout SVGCanvas, name: String, content: MotionLanes.Content, y: Double) {
        drawLaneName(&canvas, AppNameLayout.single(name), y: y)
        switch content {
        case .states(let segments):
            drawLane(&canvas, segments: segments, emptyNote: "", y: y)
        case .line(let line):
            drawLane(&canvas, segments: [], emptyNote: line.points.isEmpty ? "none counted" : "", y: y)
            drawMotionLine(&canvas, line, name: name, y: y)
        }
    }

    private func drawMotionLine(_ canvas: inout SVGCanvas, _ line: MotionLanes.Line, name: String, y: Double) {
        guard let low = line.points.map(\.value).min(), let high = line.points.map(\.value).max() else { return }
        let span = high - low
        var points: [(x: Double, y: Double)] = []
        for point in line.points {
            let x = timeX(point.t)
            // One vertex a half pixel column, whatever the sample rate.
            if let last = points.last, abs(last.x - x) < Self.pathResolution { continue }
            let share = span > 0 ? (point.value - low) / span : 0.5
            points.append((x, y + Self.laneHeight - 2 - share * (Self.laneHeight - 4)))
        }
        if points.count == 1 {
            canvas.circle(x: points[0].x, y: points[0].y, radius: 1.5, fill: Self.motionColour, extra: [("class", "motion-\(name)")])
        } else {
            canvas.polyline(points, stroke: Self.motionColour, width: 1.2, extra: [("class", "motion-\(name)")])
        }
        let range = "\(Self.figure(low))–\(Self.figure(high)) \(line.unit)"
        canvas.text(range, x: laneX + laneWidth - 4, y: y + Self.laneHeight * 0.68, size: 10, anchor: .end, fill: "#374151")
    }

    static let motionColour = "#0f766e"

    /// A lane's bound in four significant figures: 1013, 0.7854, 2.5e+04.
    private static func figure(_ value: Double) -> String { String(format: "%.4g", value) }
}
