/// The `activity` event's params, and an entry of `activity.query`'s answer: the activities
/// the device is in now (not exclusive, as `CMMotionActivity`'s flags: a car at a light is
/// automotive and stationary; none when unknown), how sure, since when, and whose word it
/// is (`derived` from the fixes, `recorded` in a trace, `hand` set with `activity.set`).
public struct WireActivity: WireValue, Equatable {
    public var types: [ActivityType]
    public var confidence: ActivityConfidence
    /// The confidence as Android's `DetectedActivity` gives it, 0–100.
    public var percent: Int
    public var startDate: Timestamp
    public var source: String

    public init(types: [ActivityType], confidence: ActivityConfidence, percent: Int, startDate: Timestamp, source: String) {
        self.types = types
        self.confidence = confidence
        self.percent = percent
        self.startDate = startDate
        self.source = source
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let startDate = try p.timestamp("startDate") else { throw .invalidParams("\"startDate\" is required") }
        let types = try ActivityTransitionsStart.names("types", in: p, as: ActivityType.self, allowEmpty: true) ?? []
        guard let percent = try p.integer("percent"), (0...100).contains(percent) else { throw .invalidParams("\"percent\" must be 0...100") }
        self.init(
            types: types, confidence: try p.required("confidence", as: ActivityConfidence.self), percent: percent, startDate: startDate,
            source: try p.requiredString("source"))
    }

    public var json: JSONValue {
        [
            "types": .array(types.map { .string($0.rawValue) }), "confidence": .string(confidence.rawValue), "percent": JSONValue(percent),
            "startDate": .string(startDate.rfc3339), "source": .string(source),
        ]
    }
}

/// The `activityTransition` event's params (Android's `ActivityTransitionEvent`): the
/// activity entered or left, when it did (which may lie before the event: the entry is
/// decided after the activity held for a while, RULES A3), and that time on the daemon's
/// monotonic clock in nanoseconds, as `elapsedRealTimeNanos` is on the phone's.
public struct WireActivityTransition: WireValue, Equatable {
    public var activity: ActivityType
    public var transition: ActivityTransitionKind
    public var time: Timestamp
    public var elapsedRealtimeNanos: Int64

    public init(activity: ActivityType, transition: ActivityTransitionKind, time: Timestamp, elapsedRealtimeNanos: Int64) {
        self.activity = activity
        self.transition = transition
        self.time = time
        self.elapsedRealtimeNanos = elapsedRealtimeNanos
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        guard let elapsed = try p.integer("elapsedRealtimeNanos") else { throw .invalidParams("\"elapsedRealtimeNanos\" is required") }
        self.init(
            activity: try p.required("activity", as: ActivityType.self), transition: try p.required("transition", as: ActivityTransitionKind.self),
            time: time, elapsedRealtimeNanos: Int64(elapsed))
    }

    public var json: JSONValue {
        [
            "activity": .string(activity.rawValue), "transition": .string(transition.rawValue), "time": .string(time.rfc3339),
            "elapsedRealtimeNanos": .int(elapsedRealtimeNanos),
        ]
    }
}

/// The `pedometer` event's params and `pedometer.query`'s answer (`CMPedometerData`): whole
/// steps and the distance they cover in metres between two times; while on foot, the cadence
/// in steps per second and the pace in seconds per metre (null in a query and when still).
public struct WirePedometer: WireValue, Equatable {
    public var startDate: Timestamp
    public var endDate: Timestamp
    public var numberOfSteps: Int
    public var distance: Double
    public var currentCadence: Double?
    public var currentPace: Double?

    public init(startDate: Timestamp, endDate: Timestamp, numberOfSteps: Int, distance: Double, currentCadence: Double?, currentPace: Double?) {
        self.startDate = startDate
        self.endDate = endDate
        self.numberOfSteps = numberOfSteps
        self.distance = distance
        self.currentCadence = currentCadence
        self.currentPace = currentPace
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let startDate = try p.timestamp("startDate") else { throw .invalidParams("\"startDate\" is required") }
        guard let endDate = try p.timestamp("endDate") else { throw .invalidParams("\"endDate\" is required") }
        guard let steps = try p.integer("numberOfSteps"), steps >= 0 else { throw .invalidParams("\"numberOfSteps\" must be a whole number, 0 or more") }
        self.init(
            startDate: startDate, endDate: endDate, numberOfSteps: steps, distance: try p.requiredNumber("distance"),
            currentCadence: try p.number("currentCadence"), currentPace: try p.number("currentPace"))
    }

    public var json: JSONValue {
        [
            "startDate": .string(startDate.rfc3339), "endDate": .string(endDate.rfc3339), "numberOfSteps": JSONValue(numberOfSteps),
            "distance": .double(distance), "currentCadence": JSONValue(currentCadence), "currentPace": JSONValue(currentPace),
        ]
    }
}
