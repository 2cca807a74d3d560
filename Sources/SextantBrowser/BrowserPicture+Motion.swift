import SextantProtocol

/// The device's motion and orientation as the pages read them (docs/browsers.md, "Motion
/// and orientation"), from the `deviceMotion`, `deviceOrientation` and `heading` events.
extension BrowserPicture {
    /// How often the bridge asks for the fused motion (`deviceMotion.start`'s interval): 50 a
    /// second, Android's `SENSOR_DELAY_GAME`; Chromium repeats the latest readings to the
    /// page's `devicemotion` listeners at its own rate (60 a second) in between.
    public static let motionInterval = 0.02

    /// The sensors a gyroscope brings, enabled once the first rate is heard (with it, and
    /// before the first script of each page attached later). Not before: Chromium's
    /// `devicemotion` waits for a reading of every sensor overridden, so a phone without a
    /// gyroscope would get no `devicemotion` at all; and a page reads which sensors it has
    /// as it loads, so one loaded before the first rate keeps `rotationRate` and
    /// `acceleration` null, as it found the device. Linear acceleration and gravity come
    /// with the gyroscope because without one Sextant's gravity is the accelerometer's
    /// reading itself (D3): a linear acceleration always zero would be made up, and a phone
    /// without a gyroscope has none (Android's `TYPE_LINEAR_ACCELERATION` and Core Motion's
    /// device motion are fused from it).
    public static let gyroscopeOverrides = [PageSensor.gyroscope.override, PageSensor.linearAcceleration.override, PageSensor.gravity.override]

    /// The readings of the sensors a gyroscope brings: the latest rate (rad/s, device axes,
    /// counter-clockwise positive: W3C's frame and sign are Sextant's; Chromium gives
    /// `devicemotion` the same rates in °/s as `rotationRate`'s alpha, beta and gamma), the
    /// user's acceleration and gravity as the fusion splits the accelerometer's reading.
    var gyroscopeReadings: [CDPCommand] {
        var readings: [CDPCommand] = rotationRate.map { [PageSensor.gyroscope.reading($0)] } ?? []
        if let fused { readings += [PageSensor.linearAcceleration.reading(fused.userAcceleration), PageSensor.gravity.reading(fused.gravity)] }
        return readings
    }

    /// One fused motion: the accelerometer's reading as it is (`devicemotion`'s
    /// `accelerationIncludingGravity`: W3C's frame and sign are Sextant's, face up at rest
    /// (0, 0, +9.81)); with a gyroscope, its sensors' readings and the attitude.
    mutating func applying(_ motion: WireDeviceMotion) -> [CDPCommand] {
        fused = motion
        var commands = [PageSensor.accelerometer.reading(motion.accelerationIncludingGravity)]
        guard let rate = motion.rotationRate else {
            // A gyroscope gone: its sensors keep their last readings, and the split of the
            // accelerometer's reading goes on; the orientation is the device's held again.
            return rotationRate == nil ? commands : commands + gyroscopeReadings.dropFirst() + orientationCommands
        }
        if rotationRate == nil { commands += Self.gyroscopeOverrides }
        rotationRate = rate
        return commands + gyroscopeReadings + orientationCommands
    }

    /// The attitude the pages' orientation is read from: the fused one while a gyroscope is
    /// heard (in the game rotation vector's frame: up is up, north wherever the yaw started,
    /// W3C's relative orientation); none without a gyroscope, whose fusion would be the
    /// accelerometer's tilt alone.
    var attitude: PageAttitude.Rotation? {
        guard let fused, fused.rotationRate != nil else { return nil }
        return fused.attitudeRotation
    }

    /// The compass heading of the device in its natural orientation: the true one when the
    /// app may have it, else the magnetic one; none before the first.
    var naturalHeading: Double? { heading.map { PageAttitude.naturalHeading($0, interface: interface ?? .portrait) } }

    /// `deviceorientation`'s angles without a gyroscope, degrees: beta and gamma from how the
    /// device is held (its orientation from the accelerometer), alpha from the compass
    /// heading (W3C: alpha grows counter-clockwise, so alpha = 360 − heading); alpha 0
    /// while there is none.
    public var orientationAngles: (alpha: Double, beta: Double, gamma: Double) {
        let (beta, gamma): (Double, Double) =
            switch device {
            case .portrait: (90, 0)
            case .portraitUpsideDown: (-90, 0)
            case .landscapeLeft: (0, -90)
            case .landscapeRight: (0, 90)
            case .faceUp, .unknown: (0, 0)
            case .faceDown: (180, 0)
            }
        let alpha = naturalHeading.map { (360 - $0).truncatingRemainder(dividingBy: 360) } ?? 0
        return (alpha, beta, gamma)
    }

    /// The relative orientation (`deviceorientation`, `RelativeOrientationSensor`): the
    /// fused attitude while a gyroscope is heard, else the device held and the compass.
    public var relativeOrientation: PageAttitude.Rotation {
        attitude ?? PageAttitude.rotation(alpha: orientationAngles.alpha, beta: orientationAngles.beta, gamma: orientationAngles.gamma)
    }

    /// The absolute orientation (`deviceorientationabsolute`, `AbsoluteOrientationSensor`):
    /// none before the first heading (a phone without a compass has none). Its azimuth is
    /// the compass heading the app is given, whatever gives it (a magnetometer, a compass
    /// by hand or recorded): the page's north is the app's. With a gyroscope, its tilt is
    /// the fused attitude's, turned about the vertical to the heading.
    public var absoluteOrientation: PageAttitude.Rotation? {
        guard let naturalHeading else { return nil }
        guard let attitude else {
            return PageAttitude.rotation(alpha: orientationAngles.alpha, beta: orientationAngles.beta, gamma: orientationAngles.gamma)
        }
        return PageAttitude.turned(attitude, toAzimuth: naturalHeading)
    }

    /// The device's orientation as the page reads it: relative always, absolute once there
    /// is a heading.
    var orientationCommands: [CDPCommand] {
        [PageSensor.relativeOrientation.reading(relativeOrientation)] + (absoluteOrientation.map { [PageSensor.absoluteOrientation.reading($0)] } ?? [])
    }
}
