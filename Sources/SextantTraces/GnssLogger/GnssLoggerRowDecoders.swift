import SextantCore
import SextantProtocol

/// Where a `Fix` row's values are, by the header's names in every version of the format
/// (1.4: `Latitude`, `Accuracy`, `(UTC)TimeInMs`; v2 and later: `LatitudeDegrees`,
/// `AccuracyMeters`, `UnixTimeMillis`, `VerticalAccuracyMeters`, `MockLocation`).
struct GnssLoggerFixColumns: Sendable {
    let provider, latitude, longitude, altitude, speed, accuracy, bearing, time, verticalAccuracy: Int?

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
        if let problem = fix.problem { throw GnssLoggerFieldProblem(reason: "Fix row: \(problem)") }
        return fix
    }
}

/// Where an `Accel` or `UncalAccel` row's values are: m/s² in Android's sensor frame
/// (x right, y up the screen, z out of it: Sextant's device frame). An uncalibrated
/// reading has its bias estimate taken off, as Android's calibrated reading has.
struct GnssLoggerAccelColumns: Sendable {
    let kind: String
    let time: Int?
    let axes: [Int?]
    let bias: [Int?]

    init(_ c: GnssLoggerColumns, uncalibrated: Bool) {
        kind = uncalibrated ? "UncalAccel" : "Accel"
        time = c.position("utctimemillis", "unixtimemillis")
        let prefix = uncalibrated ? "uncalaccel" : "accel"
        axes = ["x", "y", "z"].map { c.position("\(prefix)\($0)mps2") }
        bias = uncalibrated ? ["x", "y", "z"].map { c.position("bias\($0)mps2") } : [nil, nil, nil]
    }

    func reading(_ row: GnssLoggerFields) throws(GnssLoggerFieldProblem) -> (Timestamp, Acceleration) {
        var values: [Double] = []
        for (axis, name) in ["x", "y", "z"].enumerated() {
            let raw = try row.required(at: axes[axis], column: "its \(name) value", kind: kind)
            values.append(raw - (try row.number(at: bias[axis], column: "bias \(name)") ?? 0))
        }
        if let problem = Acceleration.problem(x: values[0], y: values[1], z: values[2]) {
            throw GnssLoggerFieldProblem(reason: "\(kind) row: \(problem)")
        }
        return (try row.time(at: time, kind: kind), Acceleration(x: values[0], y: values[1], z: values[2]))
    }
}
