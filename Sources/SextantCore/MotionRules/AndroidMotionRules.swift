import SextantProtocol

/// Android's rules for sensors (docs/platforms.md AN40, AN41), checked in AOSP and
/// developer.android.com.
public enum AndroidMotionRules {
    /// AN40: from Android 9, an app in the background receives no sensor event, continuous
    /// (accelerometer, gyroscope, barometer, what is fused from them) or on-change (light,
    /// proximity, the step counter), unless it runs a foreground service ("Limited access to
    /// sensors in background", Android 9 behaviour changes). Activity recognition and its
    /// transitions come from Play services through a PendingIntent, not a sensor listener:
    /// they reach a background app.
    public static func deliversInBackground(_ stream: MotionStream, foregroundService: Bool) -> Bool {
        switch stream {
        case .activity, .activityTransitions: return true
        case .accelerometer, .deviceMotion, .altimeter, .light, .proximity, .pedometer: return foregroundService
        }
    }

    /// AN41: from Android 12 (API 31) an app without `HIGH_SAMPLING_RATE_SENSORS` in its
    /// manifest gets the accelerometer, the gyroscope and the magnetometer at 200 Hz at most:
    /// SensorService raises a shorter sampling period to 5 ms (frameworks/native commit
    /// af91a91c5c "Throttle sensor sampling rates at 200Hz"; SensorService's
    /// `SENSOR_SERVICE_CAPPED_SAMPLING_PERIOD_NS`). The rotation vectors, gravity and linear
    /// acceleration are not in that set.
    public static let cappedInterval = 0.005
    public static let firstCappedAPI = 31
    public static let highSamplingRatePermission = "HIGH_SAMPLING_RATE_SENSORS"

    public static func samplingInterval(_ requested: Double, for stream: MotionStream, api: Int, declaration: MotionDeclaration) -> Double {
        guard stream == .accelerometer, api >= firstCappedAPI, !declaration.declares(highSamplingRatePermission) else { return requested }
        return max(requested, cappedInterval)
    }
}
