import SextantProtocol

extension RecordKind {
    /// An activity a phone recorded (RULES A9): `{"activity":{"types":["walking"],
    /// "confidence":"high"}}`, taking the place of the one derived from the trace's fixes
    /// (`ActivityService` consumes it). `types` may be empty (unknown) and name several
    /// (automotive and stationary); `confidence` is high when absent.
    public static let activity = RecordKind(name: "activity", of: RecordedActivity.self)
}

/// The body of an `activity` record.
public struct RecordedActivity: Sendable, Equatable {
    public var flags: ActivityFlags
    public var confidence: ActivityConfidence

    public init(flags: ActivityFlags, confidence: ActivityConfidence) {
        self.flags = flags
        self.confidence = confidence
    }
}

extension RecordedActivity: RecordValue {
    public static var recordKind: RecordKind { .activity }

    public var recordBody: JSONValue {
        ["types": .array(flags.types.map { .string($0.rawValue) }), "confidence": .string(confidence.rawValue)]
    }

    public static func read(recordBody: JSONValue) -> Result<RecordedActivity, RecordProblem> {
        do throws(RPCError) {
            let p = try Params(result: recordBody)
            guard p.has("types") else { return .failure(RecordProblem("activity.types is required")) }
            let types = try ActivityTransitionsStart.names("types", in: p, as: ActivityType.self, allowEmpty: true) ?? []
            let confidence = try p.name("confidence", as: ActivityConfidence.self) ?? .high
            return .success(RecordedActivity(flags: ActivityFlags(types), confidence: confidence))
        } catch {
            return .failure(RecordProblem("activity.\(error.message)"))
        }
    }

    /// One word: the flags (bits 0–7) and the confidence's index (8–9).
    public var spoolWords: [UInt64] {
        [UInt64(flags.rawValue) | UInt64(ActivityConfidence.allCases.firstIndex(of: confidence)!) << 8]
    }

    public init(spoolWords: ArraySlice<UInt64>) {
        let word = spoolWords.first ?? 0
        self.init(flags: ActivityFlags(rawValue: UInt8(word & 0xFF)), confidence: ActivityConfidence.allCases[Int(word >> 8 & 3) % 3])
    }
}
