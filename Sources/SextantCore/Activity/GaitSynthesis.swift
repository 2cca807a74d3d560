import Foundation

/// The accelerometer of a device carried on foot when no accelerometer was recorded
/// (RULES A12): gravity as the device is held, plus the gait's vertical bounce at the step
/// cadence the step counter uses (A7), and its gyroscope turning with the route, so that an
/// app reading the raw accelerometer sees the walk its activity and steps report. Ridden or
/// driven (A17), gravity alone, steady as a phone in a mount, and the route's turns on the
/// gyroscope. Pure: speeds and times in, readings out.
public struct GaitSynthesis: Sendable {
    /// A12: the bounce's amplitude, m/s² along gravity: about 0.2 g, a walker's vertical
    /// acceleration at the hip or in a pocket, and half the judge's 4 m/s² tolerance (O2),
    /// so that the orientation judge never takes a step for a shake.
    public static let amplitude = 2.0
    /// The readings' interval: 50 Hz, as a reading held by hand (O4a); a gait of 3 Hz is
    /// sampled 16 times a step.
    public static let interval: Int64 = 20_000_000

    /// Steps per second while on foot, nil otherwise (A1's walking and running bands).
    public private(set) var cadence: Double?
    /// Whether the latest stretch was ridden or driven (A1's cycling and automotive bands).
    public private(set) var onWheels = false
    /// Whether the latest stretch moved: on foot or on wheels (not A1's stationary band).
    public var moving: Bool { cadence != nil || onWheels }
    /// The gait's phase, in turns, at `phaseTime`: it runs on across a change of cadence.
    private var phase = 0.0
    private var phaseTime: Int64?

    public init() {}

    /// The turn of the route: rad/s counter-clockwise about up (a turn right is negative),
    /// the change of bearing from one stretch to the next over the time between them.
    public private(set) var yawRate = 0.0
    /// How long the yaw rate lasts after its fix: the stretch's own time, so that the rate
    /// integrates to the turn however late the next fix comes (or if none comes).
    private var yawSeconds = 0.0
    private var bearing: Double?
    /// A stretch shorter than this says no bearing (GNSS noise at a standstill).
    static let shortestBearingStretch = 0.5

    /// The true speed of the latest stretch (m/s): on foot, the cadence is A7's.
    public mutating func speed(_ speed: Double) {
        cadence = ActivityModel.stepLength(speed: speed).map { speed / $0 }
        let band = ActivityModel.band(speed: speed)
        onWheels = band == .cycling || band == .automotive
    }

    /// The latest stretch: `metres` long, over `seconds`, towards `bearing` (degrees
    /// clockwise from north); its speed and, from the bearing before, the yaw rate.
    public mutating func stretch(metres: Double, seconds: Double, bearing degrees: Double) {
        speed(metres / seconds)
        guard metres >= Self.shortestBearingStretch else {
            yawRate = 0
            return
        }
        if let bearing {
            let turned = (degrees - bearing + 540).truncatingRemainder(dividingBy: 360) - 180
            yawRate = -turned * .pi / 180 / seconds
            yawSeconds = seconds
        }
        bearing = degrees
    }

    /// The gyroscope's reading `sinceFix` seconds after the latest fix, for a device whose
    /// gravity reading at rest is `gravity`: the route's yaw rate about the device's up, on
    /// foot or on wheels, for as long as the stretch that turned took.
    public func rotationRate(gravity: Vector3, sinceFix: Double) -> Vector3 {
        guard moving, sinceFix < yawSeconds, let up = gravity.direction else { return .zero }
        return yawRate * up
    }

    /// The accelerometer's reading at `time` (ns) for a device whose gravity reading at rest
    /// is `gravity`: with the gait's bounce on foot, gravity alone on wheels (A17: no
    /// acceleration of the vehicle is made up, so the tilt and the judge stay as they are);
    /// nil while still.
    public mutating func reading(at time: Int64, gravity: Vector3) -> Vector3? {
        guard let cadence, let up = gravity.direction else {
            phaseTime = nil
            return onWheels ? gravity : nil
        }
        if let phaseTime, time > phaseTime { phase = (phase + cadence * Double(time - phaseTime) / 1e9).truncatingRemainder(dividingBy: 1) }
        phaseTime = time
        return gravity + (Self.amplitude * sin(2 * .pi * phase)) * up
    }
}
