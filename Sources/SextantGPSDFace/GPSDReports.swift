import Foundation
import SextantCore
import SextantGPSD
import SextantHub
import SextantProtocol

/// gpsd's JSON reports (gpsd_json(5), protocol 3.14 as gpsd 3.22 speaks it), written in
/// gpsd's member order and with its fixed decimals, so that a client that reads gpsd's
/// bytes reads Sextant's the same way. Each report is one line ended by CR LF, as gpsd's.
enum GPSDReport {
    /// What the banner and `?VERSION` claim: the protocol of gpsd 3.22.
    static let release = "3.22"
    static let protocolMajor = 3
    static let protocolMinor = 14

    static func version() -> String {
        var o = ObjectWriter("VERSION")
        o.string("release", release)
        o.string("rev", "sextant \(sextantVersion)")
        o.integer("proto_major", protocolMajor)
        o.integer("proto_minor", protocolMinor)
        return o.line
    }

    /// One `DEVICE` object: Sextant's sources are not serial ports, so only the path and
    /// the time the source was first heard of.
    static func deviceObject(_ device: GPSDDevice) -> String {
        var o = ObjectWriter("DEVICE")
        o.string("path", device.path)
        o.string("driver", "Sextant")
        o.string("subtype", "sextant \(device.source.rawValue)")
        o.string("activated", device.activated.rfc3339)
        return o.body
    }

    static func device(_ device: GPSDDevice) -> String { deviceObject(device) + "\r\n" }

    static func devices(_ devices: [GPSDDevice]) -> String {
        var o = ObjectWriter("DEVICES")
        o.raw("devices", "[" + devices.map(deviceObject).joined(separator: ",") + "]")
        return o.line
    }

    static func watch(_ watch: GPSDWatch) -> String {
        var o = ObjectWriter("WATCH")
        o.bool("enable", watch.enable)
        o.bool("json", watch.json)
        o.bool("nmea", watch.nmea)
        o.integer("raw", watch.raw)
        o.bool("scaled", watch.scaled)
        o.bool("timing", watch.timing)
        o.bool("split24", watch.split24)
        o.bool("pps", watch.pps)
        if let device = watch.device { o.string("device", device) }
        return o.line
    }

    static func error(_ message: String) -> String {
        var o = ObjectWriter("ERROR")
        o.string("message", message)
        return o.line
    }

    /// A fix as gpsd reports it. Sextant's fix has a horizontal accuracy radius and no
    /// error ellipse: `eph` is that radius and `epx`/`epy` share it evenly
    /// (epx² + epy² = eph²). `mode` is 3 when the fix has an altitude. A simulated fix
    /// (RULES N7) has gpsd's `status` 8, STATUS_SIM; any other leaves it out, as gpsd does
    /// for a plain fix. `declination` (the model's, at the fix, east positive) is `magvar`,
    /// with gpsd's one decimal, on every fix as gpsd sends it; `magtrack` is the course less
    /// the declination: the course from magnetic north, as a receiver's own VTG says it
    /// (docs/gpsd.md, "Heading").
    static func tpvObject(_ fix: LocationFix, device: String, declination: Double? = nil) -> String {
        var o = ObjectWriter("TPV")
        o.string("device", device)
        if fix.simulated { o.integer("status", GPSDDevice.simulatedStatus) }
        o.integer("mode", fix.altitude == nil ? 2 : 3)
        o.string("time", fix.time.rfc3339)
        o.fixed("lat", fix.latitude, 9)
        o.fixed("lon", fix.longitude, 9)
        if let altitude = fix.altitude {
            o.fixed("altMSL", altitude, 4)
            o.fixed("alt", altitude, 4)
        }
        let axis = fix.horizontalAccuracy / 2.0.squareRoot()
        o.fixed("epx", axis, 3)
        o.fixed("epy", axis, 3)
        if let vertical = fix.verticalAccuracy { o.fixed("epv", vertical, 3) }
        if let course = fix.course {
            o.fixed("track", course, 4)
            if let declination { o.fixed("magtrack", HeadingMath.normalized(course - declination), 4) }
        }
        if let declination { o.fixed("magvar", declination, 1) }
        if let speed = fix.speed { o.fixed("speed", speed, 3) }
        o.fixed("eph", fix.horizontalAccuracy, 3)
        return o.body
    }

    static func tpv(_ fix: LocationFix, device: String, declination: Double? = nil) -> String {
        tpvObject(fix, device: device, declination: declination) + "\r\n"
    }

    /// A heading as gpsd's ATT (vehicle attitude) report, in the device's natural
    /// orientation: `heading` is degrees from true north (only where the client may know
    /// where it is), `mheading` from magnetic north, `mag_st` the magnetometer's state as a
    /// TNT compass codes it (`C` calibration alarm, `N` normal), `mag_x`/`mag_y`/`mag_z`
    /// the field in µT in the device's axes when the heading was decided from one.
    static func attitude(_ heading: Heading, trueHeading: Double?, needsCalibration: Bool, device: String) -> String {
        var o = ObjectWriter("ATT")
        o.string("device", device)
        o.string("time", heading.time.rfc3339)
        if let trueHeading { o.fixed("heading", trueHeading, 3) }
        o.string("mag_st", needsCalibration ? "C" : "N")
        o.fixed("mheading", heading.magnetic, 3)
        if let field = heading.field {
            o.fixed("mag_x", field.x, 3)
            o.fixed("mag_y", field.y, 3)
            o.fixed("mag_z", field.z, 3)
        }
        return o.line
    }

    /// The fused motion after a gyroscope reading as an ATT of an IMU, in gpsd's member order:
    /// `pitch` positive with the top (the device's y axis) raised and `roll` positive with its
    /// right edge lowered, as a vehicle's nose up and bank to starboard (Android's pitch
    /// negated, its roll as is); `yaw` the top's azimuth from magnetic north, as `mheading`;
    /// `acc_x`/`acc_y`/`acc_z` what the accelerometer reads, m/s²; `gyro_x`/`gyro_y`/`gyro_z`
    /// the rate in °/s, device axes: gpsd 3.24's gpsd_json(5) gives deg/s for all three.
    /// gpsd 3.22 reads `gyro_x`/`gyro_y` only, and any gpsd skips a member it does not
    /// know (docs/gpsd.md, "Attitude").
    static func motionAttitude(_ motion: DeviceMotionDecided, device: String) -> String {
        let degrees = 180 / Double.pi
        var o = ObjectWriter("ATT")
        o.string("device", device)
        o.string("time", motion.time.rfc3339)
        if let angles = motion.angles {
            o.fixed("pitch", -angles.pitch, 3)
            o.fixed("yaw", angles.azimuth, 3)
            o.fixed("roll", angles.roll, 3)
        }
        o.fixed("acc_x", motion.acceleration.x, 3)
        o.fixed("acc_y", motion.acceleration.y, 3)
        o.fixed("acc_z", motion.acceleration.z, 3)
        o.fixed("gyro_x", motion.rotationRate.x * degrees, 3)
        o.fixed("gyro_y", motion.rotationRate.y * degrees, 3)
        o.fixed("gyro_z", motion.rotationRate.z * degrees, 3)
        return o.line
    }

    /// What gpsd sends when its receiver has no fix: mode 1, no position.
    static func noFixObject(device: String) -> String {
        var o = ObjectWriter("TPV")
        o.string("device", device)
        o.integer("mode", 1)
        return o.body
    }

    static func noFix(device: String) -> String { noFixObject(device: device) + "\r\n" }

    /// `?POLL`'s answer: the last TPV of each active device (at most one here).
    static func poll(time: Timestamp, tpv: String?) -> String {
        var o = ObjectWriter("POLL")
        o.string("time", time.rfc3339)
        o.integer("active", tpv == nil ? 0 : 1)
        o.raw("tpv", "[" + (tpv ?? "") + "]")
        o.raw("gst", "[]")
        o.raw("sky", "[]")
        return o.line
    }
}

/// The device gpsd clients see: a path as gpsd gives one (gpsd clients split
/// `host:port:device` at colons, so a path with one cannot be named), and the source that
/// gives its fixes.
struct GPSDDevice: Equatable {
    /// A TPV's `status` for a simulated fix (gps.h STATUS_SIM), as the gpsd source reads it.
    static let simulatedStatus = SextantGPSD.GPSDReport.simulatedStatus
    static let path = "/dev/sextant0"
    var path: String
    var activated: Timestamp
    /// Where its fixes come from: `subtype` `sextant replay`, `sextant gpsd`, `sextant manual`.
    var source: SourceName
}

/// Writes one JSON object member by member, in the order gpsd writes them.
struct ObjectWriter {
    private var text: String

    init(_ className: String) { text = #"{"class":"# + JSONValue.string(className).serialized() }

    mutating func string(_ key: String, _ value: String) { raw(key, JSONValue.string(value).serialized()) }
    mutating func integer(_ key: String, _ value: Int) { raw(key, String(value)) }
    mutating func bool(_ key: String, _ value: Bool) { raw(key, value ? "true" : "false") }

    /// A number with `decimals` digits after the point, as gpsd's `%.Nf`; a value that is
    /// not finite is left out (gpsd writes no NaN).
    mutating func fixed(_ key: String, _ value: Double, _ decimals: Int) {
        guard value.isFinite else { return }
        raw(key, String(format: "%.\(decimals)f", value))
    }

    mutating func raw(_ key: String, _ json: String) {
        text += "," + JSONValue.string(key).serialized() + ":" + json
    }

    var body: String { text + "}" }
    var line: String { body + "\r\n" }
}
