import SextantCore
import SextantProtocol

/// Where a `Fix` row's values are, by the header's names in every version of the format
/// (1.4: `Latitude`, `Accuracy`, `(UTC)TimeInMs`; v2 and later: `LatitudeDegrees`,
/// `AccuracyMeters`, `UnixTimeMillis`, `VerticalAccuracyMeters`, `MockLocation`).
struct GnssLoggerFixColumns: Sendable {
    let provider, latitude, longitude, altitude, speed, accuracy, bearing, time, verticalAccuracy, mockLocation: Int?

    init(_ c: GnssLoggerColumns) {
        provider = c.position("provider")
        latitude = c.position("latitudedegrees", "latitude")
        longitude = c.position("longitudedegrees", "longitude")
        altitude = c.position("altitudemeters", "altitude")
        speed = c.position("speedmps", "speed")
        accuracy = c.position("accuracymeters", "accuracy")
        bearing = c.position("bearingdegrees", "bearing")
        time = c.position("unixtimemillis", "utctimemillis", "(utc)timeinms")
        verticalAccuracy = c.position("verticalaccuracymeters", "verticalaccuracy")
        mockLocation = c.position("mocklocation")
    }

    /// The row's provider, lower case ("" when the header has no such column).
    func provider(of row: GnssLoggerFields) -> String {
        provider.map { row.text($0).lowercased() } ?? ""
    }

    /// The row's fix: latitude, longitude and time required, the rest when given; values
    /// out of range are refused as in every trace (`LocationFix.problem`).
    func fix(_ row: GnssLoggerFields) throws(GnssLoggerFieldProblem) -> LocationFix {
        let latitude = try row.required(at: latitude, column: "latitude", kind: "Fix")
        let longitude = try row.required(at: longitude, column: "longitude", kind: "Fix")
        var fix = LocationFix(
            latitude: latitude, longitude: longitude, altitude: try row.number(at: altitude, column: "altitude"),
            horizontalAccuracy: try row.number(at: accuracy, column: "accuracy") ?? LocationFix.defaultHorizontalAccuracy,
            verticalAccuracy: try row.number(at: verticalAccuracy, column: "vertical accuracy"),
            speed: try row.number(at: speed, column: "speed"), course: try row.number(at: bearing, column: "bearing"),
            time: try row.time(at: time, kind: "Fix"))
        // Android's bearing is [0, 360); a rounding to 360.0 is north.
        if fix.course == 360 { fix.course = 0 }
        fix.recordedSimulated = try mock(row)
        if let problem = fix.problem { throw GnssLoggerFieldProblem(reason: "Fix row: \(problem)") }
        return fix
    }

    /// `MockLocation`: Android's `Location.isMock()` as the app wrote it, `1` or `0`
    /// (`true`/`false` accepted); nil where the header has no such column or the row
    /// leaves it empty.
    private func mock(_ row: GnssLoggerFields) throws(GnssLoggerFieldProblem) -> Bool? {
        guard let mockLocation else { return nil }
        switch row.text(mockLocation).lowercased() {
        case "": return nil
        case "1", "true": return true
        case "0", "false": return false
        case let other: throw GnssLoggerFieldProblem(reason: "Fix row: MockLocation must be 0 or 1, not \"\(other)\"")
        }
    }
}

/// Where the values of a three-axis sensor row are (`Accel`, `UncalAccel`: m/s²; `Mag`,
/// `UncalMag`: µT; `Gyro`, `UncalGyro`: rad/s), in Android's sensor frame (x right, y up the
/// screen, z out of it: Sextant's device frame; rates counter-clockwise positive, as
/// Sextant's). An uncalibrated reading has its bias estimate (the gyroscope's drift) taken
/// off, as Android's calibrated reading has.
struct GnssLoggerAxesColumns: Sendable {
    let kind: String
    let sensor: SensorKind
    let time: Int?
    let axes: [Int?]
    let bias: [Int?]

    /// `unit` is the suffix of the header's names (`mps2`, `microt`); the axes are
    /// `<kind>Xunit` (`AccelXMps2`, `UncalMagXMicroT`), the biases `<bias>Xunit`
    /// (`BiasXMps2`, the gyroscope's `DriftXRadPerSec`).
    init(_ c: GnssLoggerColumns, kind: String, sensor: SensorKind, unit: String, uncalibrated: Bool, bias biasName: String = "bias") {
        self.kind = kind
        self.sensor = sensor
        time = c.position("utctimemillis", "unixtimemillis")
        axes = ["x", "y", "z"].map { c.position("\(kind.lowercased())\($0)\(unit)") }
        bias = uncalibrated ? ["x", "y", "z"].map { c.position("\(biasName)\($0)\(unit)") } : [nil, nil, nil]
    }

    static func accel(_ c: GnssLoggerColumns, uncalibrated: Bool) -> GnssLoggerAxesColumns {
        GnssLoggerAxesColumns(c, kind: uncalibrated ? "UncalAccel" : "Accel", sensor: .accelerometer, unit: "mps2", uncalibrated: uncalibrated)
    }

    static func mag(_ c: GnssLoggerColumns, uncalibrated: Bool) -> GnssLoggerAxesColumns {
        GnssLoggerAxesColumns(c, kind: uncalibrated ? "UncalMag" : "Mag", sensor: .magnetometer, unit: "microt", uncalibrated: uncalibrated)
    }

    static func gyro(_ c: GnssLoggerColumns, uncalibrated: Bool) -> GnssLoggerAxesColumns {
        GnssLoggerAxesColumns(
            c, kind: uncalibrated ? "UncalGyro" : "Gyro", sensor: .gyroscope, unit: "radpersec", uncalibrated: uncalibrated, bias: "drift")
    }

    /// The row's reading of ``sensor``, refused with the kind's message when out of its bounds.
    func reading(_ row: GnssLoggerFields) throws(GnssLoggerFieldProblem) -> (Timestamp, SensorReading) {
        var reading = SensorReading(kind: sensor.id)
        for (axis, name) in ["x", "y", "z"].enumerated() {
            let raw = try row.required(at: axes[axis], column: "its \(name) value", kind: kind)
            reading.set(axis, raw - (try row.number(at: bias[axis], column: "bias \(name)") ?? 0))
        }
        if let problem = sensor.problem(reading) { throw GnssLoggerFieldProblem(reason: "\(kind) row: \(problem)") }
        return (try row.time(at: time, kind: kind), reading)
    }
}

/// Where an `OrientationDeg` row's values are. Its `yawDeg` is Android's azimuth
/// (`SensorManager.getOrientation`): the angle between the device's y axis and magnetic
/// north, played as a compass's magnetic heading (LOGGING_FORMAT.md; with the screen in
/// landscape, GnssLogger adds the screen's rotation, which the file does not say). Roll
/// and pitch describe the attitude, which a compass reading does not hold.
struct GnssLoggerOrientationColumns: Sendable {
    let time: Int?
    let yaw: Int?

    init(_ c: GnssLoggerColumns) {
        time = c.position("utctimemillis", "unixtimemillis")
        yaw = c.position("yawdeg")
    }

    func reading(_ row: GnssLoggerFields) throws(GnssLoggerFieldProblem) -> (Timestamp, CompassReading) {
        let yaw = try row.required(at: yaw, column: "yawDeg", kind: "OrientationDeg")
        guard yaw >= 0, yaw <= 360 else {
            throw GnssLoggerFieldProblem(reason: "OrientationDeg row: yawDeg must be within 0...360 degrees, not \(yaw)")
        }
        return (try row.time(at: time, kind: "OrientationDeg"), CompassReading(magnetic: yaw == 360 ? 0 : yaw))
    }
}
