import SextantCore
import SextantProtocol

/// What the faces may ask of the device-motion service: the host API's device-motion part,
/// kept beside the service so that the hub's own files name no service.
extension Hub {
    /// Whether a face shows the fused motion now (the gpsd face while a client watches in
    /// JSON). While one does, the engine runs as for a subscribed app (D6) and each
    /// gyroscope reading it admits is observed as a ``DeviceMotionDecided``.
    package func setDeviceMotionHeardByFace(_ hears: Bool) { services(DeviceMotionService.self).setFaceHears(hears) }
}

/// Observed by the faces (``Face/observe(_:)``) while a face hears (``Hub/setDeviceMotionHeardByFace(_:)``):
/// the fused motion after a gyroscope reading, at most one each ``DeviceMotionService/faceInterval``
/// of the readings' clock, before any app's rules.
package struct DeviceMotionDecided: DeviceChange {
    package let time: Timestamp
    /// The rotation vector's angles (magnetic north, Android's signs); nil before a field is heard.
    package let angles: AttitudeAngles?
    /// rad/s about the device's axes, as the gyroscope reads it.
    package let rotationRate: RotationRate
    /// What the accelerometer reads, m/s² in the device's axes: gravity plus the user's acceleration.
    package let acceleration: Acceleration
}
