import SextantProtocol

/// A change of posture (RULES P3, P4): the hub sends it as a `posture` event.
public struct PostureChange: Sendable, Equatable {
    /// nil for the first decision.
    public var previous: PostureState?
    public var state: PostureState
    /// The angle of the sample that decided it.
    public var hingeAngle: Double
    public var fold: FoldDirection
    /// The time of that sample (trace time in replay).
    public var time: Timestamp

    public init(previous: PostureState?, state: PostureState, hingeAngle: Double, fold: FoldDirection, time: Timestamp) {
        self.previous = previous
        self.state = state
        self.hingeAngle = hingeAngle
        self.fold = fold
        self.time = time
    }
}

extension FoldDirection {
    /// P4: the fold as the user sees it, from the device's last upright orientation:
    /// a hinge along y stands vertical (a book) in portrait and portraitUpsideDown, and
    /// lies horizontal (a tabletop) in a landscape; vertical before any upright one.
    public init(lastUprightDeviceOrientation orientation: DeviceOrientation?) {
        switch orientation {
        case .landscapeLeft, .landscapeRight: self = .horizontal
        case .portrait, .portraitUpsideDown, .faceUp, .faceDown, .unknown, nil: self = .vertical
        }
    }
}

/// Decides the posture of a foldable from hinge angles (RULES P1–P4).
///
/// The first sample decides on the plain ranges (closed ≤ 30 < halfOpened < 150 ≤ flat);
/// after that the state moves with hysteresis, so that a hinge resting near a boundary
/// does not flicker: closed opens above 30, halfOpened closes at 5 or less and lies flat
/// at 150, flat folds below 125. A sample within 1° of the last accepted angle is jitter
/// and is ignored.
public struct PostureEngine: Sendable {
    /// nil until the first hinge sample.
    public private(set) var state: PostureState?
    /// The angle of the last sample taken into account.
    public private(set) var lastAcceptedAngle: Double?

    /// P3's thresholds, in degrees.
    enum Threshold {
        static let firstClosedAtMost = 30.0
        static let firstFlatAtLeast = 150.0
        static let opensAbove = 30.0
        static let closesAtMost = 5.0
        static let flattensAtLeast = 150.0
        static let foldsBelow = 125.0
        static let jitter = 1.0
    }

    public init() {}

    /// Judges one hinge sample.
    /// - Parameter lastUprightDeviceOrientation: `OrientationJudge.lastUprightOrientation`,
    ///   for the fold direction (P4).
    /// - Returns: the change when the state changed (one per sample, however many
    ///   thresholds it crossed).
    public mutating func judge(
        hingeAngle angle: Double, at time: Timestamp, lastUprightDeviceOrientation: DeviceOrientation?
    ) -> PostureChange? {
        guard angle.isFinite else { return nil }
        if let last = lastAcceptedAngle, abs(angle - last) <= Threshold.jitter { return nil }
        lastAcceptedAngle = angle
        let previous = state
        let next = previous.map { Self.next(after: $0, angle: angle) } ?? Self.first(angle)
        guard next != previous else { return nil }
        state = next
        return PostureChange(
            previous: previous, state: next, hingeAngle: angle,
            fold: FoldDirection(lastUprightDeviceOrientation: lastUprightDeviceOrientation), time: time)
    }

    /// P3: the first sample, without hysteresis.
    private static func first(_ angle: Double) -> PostureState {
        if angle <= Threshold.firstClosedAtMost { return .closed }
        if angle < Threshold.firstFlatAtLeast { return .halfOpened }
        return .flat
    }

    /// P3: later samples, with hysteresis. Going straight across two thresholds lands in
    /// the far state.
    private static func next(after state: PostureState, angle: Double) -> PostureState {
        switch state {
        case .closed:
            if angle >= Threshold.flattensAtLeast { return .flat }
            return angle > Threshold.opensAbove ? .halfOpened : .closed
        case .halfOpened:
            if angle <= Threshold.closesAtMost { return .closed }
            return angle >= Threshold.flattensAtLeast ? .flat : .halfOpened
        case .flat:
            if angle <= Threshold.closesAtMost { return .closed }
            return angle < Threshold.foldsBelow ? .halfOpened : .flat
        }
    }
}
