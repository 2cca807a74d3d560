/// The `heading` event's params (sextant-rules(7) H1–H8): degrees from magnetic and, when
/// the app may know where it is, true north; the accuracy when known; the field in µT when
/// a magnetometer gave it; the reading's time.
public struct WireHeading: WireValue, Equatable {
    public var magnetic: Double
    public var trueHeading: Double?
    /// Null on the wire when the source says nothing.
    public var accuracy: Double?
    public var field: Field?
    public var time: Timestamp

    /// The magnetic field, µT, device frame.
    public struct Field: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var z: Double

        public init(x: Double, y: Double, z: Double) { (self.x, self.y, self.z) = (x, y, z) }
    }

    public init(magnetic: Double, trueHeading: Double? = nil, accuracy: Double?, field: Field? = nil, time: Timestamp) {
        (self.magnetic, self.trueHeading, self.accuracy, self.field, self.time) = (magnetic, trueHeading, accuracy, field, time)
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let magnetic = try p.number("magnetic") else { throw .invalidParams("\"magnetic\" is required") }
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        var field: Field?
        if let f = try p.object("field") {
            guard let x = try f.number("x"), let y = try f.number("y"), let z = try f.number("z") else {
                throw .invalidParams("\"field\" needs x, y and z")
            }
            field = Field(x: x, y: y, z: z)
        }
        self.init(magnetic: magnetic, trueHeading: try p.number("true"), accuracy: try p.number("accuracy"), field: field, time: time)
    }

    public var json: JSONValue {
        var o = WireObject()
        o.set("magnetic", magnetic)
        o.set("true", trueHeading)
        o["accuracy"] = accuracy.map { .double($0) } ?? .null
        if let field { o["field"] = ["x": .double(field.x), "y": .double(field.y), "z": .double(field.z)] }
        o["time"] = .string(time.rfc3339)
        return o.json
    }
}

/// The `headingCalibration` event's params (H5): iOS `shouldDisplayHeadingCalibration`.
public struct HeadingCalibrationEvent: WireValue, Equatable {
    public var needed: Bool
    public var time: Timestamp

    public init(needed: Bool, time: Timestamp) {
        self.needed = needed
        self.time = time
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.init(needed: try p.requiredBool("needed"), time: time)
    }

    public var json: JSONValue { ["needed": .bool(needed), "time": .string(time.rfc3339)] }
}
