import Foundation

/// The International Standard Atmosphere's troposphere as phones use it: Android's
/// `SensorManager.getAltitude(p0, p) = 44330 × (1 − (p/p0)^(1/5.255))` and its inverse
/// `p = p0 × (1 − h/44330)^5.255`, with `p0` the pressure at sea level (1013.25 hPa,
/// `PRESSURE_STANDARD_ATMOSPHERE`, unless told).
public enum StandardAtmosphere {
    public static let seaLevelPressure = 1013.25
    /// The height (m) at which the formula's pressure reaches 0.
    static let scaleHeight = 44330.0
    static let exponent = 5.255

    /// The pressure in hPa at `altitude` metres above sea level; 0 from 44 330 m up.
    public static func pressure(atAltitude altitude: Double, seaLevel p0: Double = seaLevelPressure) -> Double {
        p0 * pow(max(0, 1 - altitude / scaleHeight), exponent)
    }

    /// The altitude in metres at which the pressure is `hPa`.
    public static func altitude(atPressure hPa: Double, seaLevel p0: Double = seaLevelPressure) -> Double {
        scaleHeight * (1 - pow(max(0, hPa) / p0, 1 / exponent))
    }
}
