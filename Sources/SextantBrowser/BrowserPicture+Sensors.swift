import Foundation
import SextantProtocol

/// Chromium's sensor emulation (`Emulation.setSensorOverrideEnabled` /
/// `setSensorOverrideReadings`): the sensor types the bridge gives the pages, and what each
/// reads from Sextant's events.
public enum PageSensor: String, Sendable, CaseIterable {
    /// `devicemotion`'s `accelerationIncludingGravity`, the generic `Accelerometer`.
    case accelerometer
    /// `devicemotion`'s `rotationRate` (°/s), the generic `Gyroscope` (rad/s).
    case gyroscope
    /// `devicemotion`'s `acceleration`, the generic `LinearAccelerationSensor`.
    case linearAcceleration = "linear-acceleration"
    /// The generic `GravitySensor`.
    case gravity
    /// `deviceorientation` and the generic `RelativeOrientationSensor` (Chromium derives the
    /// event's angles from the quaternion; `DeviceOrientation.setDeviceOrientationOverride`
    /// drives the same virtual sensor, so the two cannot be used together).
    case relativeOrientation = "relative-orientation"
    /// `deviceorientationabsolute` and the generic `AbsoluteOrientationSensor`.
    case absoluteOrientation = "absolute-orientation"
    /// The generic `AmbientLightSensor` (Chromium rounds its lux to 50 for the page).
    case ambientLight = "ambient-light"

    /// The page's sensor of this type is the bridge's: its readings are what the bridge says.
    public var override: CDPCommand {
        CDPCommand("Emulation.setSensorOverrideEnabled", ["enabled": true, "type": .string(rawValue)], to: .everyPage)
    }

    public func reading(_ v: WireVector) -> CDPCommand {
        reading(["xyz": ["x": .double(v.x), "y": .double(v.y), "z": .double(v.z)]])
    }

    public func reading(_ q: PageAttitude.Rotation) -> CDPCommand {
        reading(["quaternion": ["x": .double(q.x), "y": .double(q.y), "z": .double(q.z), "w": .double(q.w)]])
    }

    public func reading(single value: Double) -> CDPCommand { reading(["single": ["value": .double(value)]]) }

    /// What a reading is sent with.
    public static let readingsMethod = "Emulation.setSensorOverrideReadings"

    private func reading(_ value: JSONValue) -> CDPCommand {
        CDPCommand(Self.readingsMethod, ["type": .string(rawValue), "reading": value], to: .everyPage)
    }
}

/// The geometry the pages' orientation needs, kept to a client's means (the bridge is an app
/// on app.sock, like any other): quaternions that turn device-frame vectors into the
/// reference frame, W3C's convention and the `deviceMotion` event's.
public enum PageAttitude {
    public struct Rotation: Sendable, Equatable {
        public var x: Double, y: Double, z: Double, w: Double
        public init(x: Double, y: Double, z: Double, w: Double) { (self.x, self.y, self.z, self.w) = (x, y, z, w) }
    }

    /// The heading's rule for when the device's top counts as vertical (RULES H1: 25°): its
    /// back then gives the heading.
    static let uprightLimit = 25.0

    /// W3C's angles (alpha about z, then beta about the turned x, then gamma about the
    /// turned y: z(alpha)·x(beta)·y(gamma)), degrees, as the unit quaternion.
    public static func rotation(alpha: Double, beta: Double, gamma: Double) -> Rotation {
        let half = Double.pi / 360
        let (ca, sa) = (cos(alpha * half), sin(alpha * half))
        let (cb, sb) = (cos(beta * half), sin(beta * half))
        let (cg, sg) = (cos(gamma * half), sin(gamma * half))
        return Rotation(
            x: ca * sb * cg - sa * cb * sg, y: ca * cb * sg + sa * sb * cg, z: sa * cb * cg + ca * sb * sg, w: ca * cb * cg - sa * sb * sg)
    }

    /// Where the attitude points the device as a compass does (H1), degrees clockwise from
    /// the reference's y axis: the top's (y) horizontal direction, or the back's (−z) while
    /// the top is within `uprightLimit` of vertical.
    public static func azimuth(_ q: Rotation) -> Double {
        // The device's y and z axes in the reference frame: columns 1 and 2 of q's matrix.
        let (r01, r11, r21) = (2 * (q.x * q.y - q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z + q.w * q.x))
        let (r02, r12) = (2 * (q.x * q.z + q.w * q.y), 2 * (q.y * q.z - q.w * q.x))
        let upright = abs(r21) > cos(uprightLimit * .pi / 180)
        return (upright ? atan2(-r02, -r12) : atan2(r01, r11)) * 180 / .pi
    }

    /// The attitude turned about the vertical until the compass would read `heading` on it:
    /// its tilt kept, its azimuth the heading's (an arbitrary-yaw attitude made absolute).
    public static func turned(_ q: Rotation, toAzimuth heading: Double) -> Rotation {
        // Turning the reference counter-clockwise by δ takes every azimuth down by δ.
        let delta = (azimuth(q) - heading) * .pi / 180
        let (c, s) = (cos(delta / 2), sin(delta / 2))
        return Rotation(x: c * q.x - s * q.y, y: c * q.y + s * q.x, z: c * q.z + s * q.w, w: c * q.w - s * q.z)
    }

    /// The heading of the device's natural orientation from one turned to the app's
    /// interface (app.sock's headings are, RULES H2): W3C's angles are the device's.
    public static func naturalHeading(_ heading: Double, interface: InterfaceOrientation) -> Double {
        let turn: Double =
            switch interface {
            case .portrait: 0
            case .landscapeRight: -90
            case .landscapeLeft: 90
            case .portraitUpsideDown: 180
            }
        let degrees = (heading + turn).truncatingRemainder(dividingBy: 360)
        return degrees < 0 ? degrees + 360 : degrees
    }
}

extension WireDeviceMotion {
    /// What the accelerometer read: gravity plus the user's acceleration.
    var accelerationIncludingGravity: WireVector {
        WireVector(x: gravity.x + userAcceleration.x, y: gravity.y + userAcceleration.y, z: gravity.z + userAcceleration.z)
    }

    var attitudeRotation: PageAttitude.Rotation { PageAttitude.Rotation(x: attitude.x, y: attitude.y, z: attitude.z, w: attitude.w) }
}
