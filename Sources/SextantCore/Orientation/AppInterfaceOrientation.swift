import SextantProtocol

/// The device-wide facts an app's interface orientation depends on. The hub builds it
/// from its `OrientationJudge` and its rotation-lock switch, and hands it to every call.
public struct InterfaceConditions: Sendable, Equatable {
    public var profile: DeviceProfile
    /// The current device orientation (`OrientationJudge.orientation`).
    public var deviceOrientation: DeviceOrientation
    /// The last upright device orientation, nil before the first
    /// (`OrientationJudge.lastUprightOrientation`): launches read it while the device
    /// lies flat (O6).
    public var lastUprightDeviceOrientation: DeviceOrientation?
    /// The system rotation lock (O9).
    public var rotationLock: Bool

    public init(
        profile: DeviceProfile, deviceOrientation: DeviceOrientation,
        lastUprightDeviceOrientation: DeviceOrientation?, rotationLock: Bool
    ) {
        self.profile = profile
        self.deviceOrientation = deviceOrientation
        self.lastUprightDeviceOrientation = lastUprightDeviceOrientation
        self.rotationLock = rotationLock
    }
}

/// An `interfaceOrientation` event to send to the app.
public struct InterfaceOrientationChange: Sendable, Equatable {
    /// nil when the app launches: its first time in the foreground after a `hello` in
    /// the background (O6).
    public var previous: InterfaceOrientation?
    public var orientation: InterfaceOrientation

    public init(previous: InterfaceOrientation?, orientation: InterfaceOrientation) {
        self.previous = previous
        self.orientation = orientation
    }
}

/// Why a supported set was refused.
public enum InterfaceOrientationError: Error, Sendable, Equatable {
    /// The declared set shares nothing with what the profile allows: the effective set
    /// would be empty ("Interface orientation").
    case noSupportedOrientation(declared: [InterfaceOrientation], profile: DeviceProfile)

    /// As the app socket reports it: -32602.
    public var rpcError: RPCError {
        switch self {
        case .noSupportedOrientation(let declared, let profile):
            let names = declared.map(\.rawValue).joined(separator: ", ")
            return .invalidParams("\"orientations\": none of [\(names)] is allowed on a \(profile.rawValue)")
        }
    }
}

extension DeviceProfile {
    /// The interface orientations the profile allows: a phone (and a foldable, P1) has no
    /// upside-down interface; a tablet has all four.
    public var interfaceOrientations: [InterfaceOrientation] {
        switch self {
        case .phone, .foldable: return [.portrait, .landscapeLeft, .landscapeRight]
        case .tablet: return [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]
        }
    }
}

extension InterfaceOrientation {
    /// The interface orientation that goes with an upright device orientation. Interface
    /// names follow iOS: device landscapeLeft (top on the left) shows interface
    /// landscapeRight (Home on the right), and the other way round. nil when not upright.
    public init?(device: DeviceOrientation) {
        switch device {
        case .portrait: self = .portrait
        case .portraitUpsideDown: self = .portraitUpsideDown
        case .landscapeLeft: self = .landscapeRight
        case .landscapeRight: self = .landscapeLeft
        case .unknown, .faceUp, .faceDown: return nil
        }
    }
}

/// One app session's interface orientation under RULES O6–O11.
///
/// The hub keeps one per session and calls it for every input that can move the
/// interface; each call answers with the `interfaceOrientation` event to send, if any.
/// `orientation` is what `hello`, `app.update` and `apps.list` report at any time.
/// Background apps hear nothing (O11): a move made while in the background (O10) is
/// silent, and the next event's `previous` is the orientation it moved to.
///
/// Whether the app is in the foreground is not kept here: the authorization engine owns
/// that state (L5–L8a decide it), and each call is handed the state in force.
public struct AppInterfaceOrientation: Sendable, Equatable {
    /// nil until the app first comes to the foreground (O6).
    public private(set) var orientation: InterfaceOrientation?
    /// The set the app declared, in its order.
    public private(set) var declared: [InterfaceOrientation]
    /// The effective set: declared ∩ the profile's, never empty.
    public private(set) var supported: Set<InterfaceOrientation>
    /// O8: the app froze its own interface orientation.
    public private(set) var interfaceLocked = false

    /// A session starts at `hello`; one in the foreground launches at once (O6), without
    /// an event (the `hello` result carries the orientation).
    /// - Parameter declared: the app's `orientations`; nil for all the profile allows.
    public init(
        declared: [InterfaceOrientation]?, state: AppState, conditions: InterfaceConditions
    ) throws(InterfaceOrientationError) {
        let declared = declared ?? conditions.profile.interfaceOrientations
        self.declared = declared
        self.supported = try Self.effective(declared, conditions.profile)
        if state == .foreground { orientation = launchOrientation(conditions) }
    }

    /// Call after the device orientation or the rotation lock changed: a foreground app
    /// that is not frozen follows (O7); turning the rotation lock off unfreezes (O9a).
    public mutating func deviceChanged(_ conditions: InterfaceConditions, state: AppState) -> InterfaceOrientationChange? {
        guard state == .foreground, !isFrozen(conditions) else { return nil }
        return move(to: followingOrientation(conditions), state: state)
    }

    /// The app went to the background or came back to the foreground (call on a change
    /// only): the first time it launches (O6); later it jumps to what O7 gives unless
    /// frozen (O11).
    public mutating func stateChanged(to state: AppState, _ conditions: InterfaceConditions) -> InterfaceOrientationChange? {
        guard state == .foreground else { return nil }
        guard orientation != nil else { return move(to: launchOrientation(conditions), state: state) }
        guard !isFrozen(conditions) else { return nil }
        return move(to: followingOrientation(conditions), state: state)
    }

    /// The app declared a new supported set. When its interface orientation left the set
    /// it moves at once as at launch (O10), frozen or not; otherwise it stays.
    /// - Throws: when the effective set would be empty; then nothing changes.
    public mutating func setSupported(
        _ newDeclared: [InterfaceOrientation], _ conditions: InterfaceConditions, state: AppState
    ) throws(InterfaceOrientationError) -> InterfaceOrientationChange? {
        supported = try Self.effective(newDeclared, conditions.profile)
        declared = newDeclared
        guard let orientation, !supported.contains(orientation) else { return nil }
        return move(to: launchOrientation(conditions), state: state)
    }

    /// O8: the app freezes or unfreezes its interface; unfreezing moves it at once to
    /// what O7 gives for the current device orientation (O9a), unless the rotation lock
    /// still holds it.
    public mutating func setInterfaceLocked(_ locked: Bool, _ conditions: InterfaceConditions, state: AppState) -> InterfaceOrientationChange? {
        guard locked != interfaceLocked else { return nil }
        interfaceLocked = locked
        guard !locked, state == .foreground, !isFrozen(conditions) else { return nil }
        return move(to: followingOrientation(conditions), state: state)
    }

    // MARK: - The rules

    private func isFrozen(_ conditions: InterfaceConditions) -> Bool { interfaceLocked || conditions.rotationLock }

    /// O6: the interface for the device's last upright orientation (taken as portrait under
    /// the rotation lock, O9) if supported; else portrait; else landscapeRight (Home on the
    /// right), landscapeLeft; else portraitUpsideDown.
    private func launchOrientation(_ conditions: InterfaceConditions) -> InterfaceOrientation {
        let device = conditions.rotationLock ? .portrait : conditions.lastUprightDeviceOrientation ?? .portrait
        if let wanted = InterfaceOrientation(device: device), supported.contains(wanted) { return wanted }
        let fallbacks: [InterfaceOrientation] = [.portrait, .landscapeRight, .landscapeLeft]
        return fallbacks.first(where: supported.contains) ?? .portraitUpsideDown
    }

    /// O7 for the current device orientation: the interface that goes with it when the
    /// device is upright and the app supports it; otherwise (an unsupported orientation,
    /// faceUp, faceDown, unknown) where it is. Not yet launched stays unlaunched.
    private func followingOrientation(_ conditions: InterfaceConditions) -> InterfaceOrientation? {
        guard let wanted = InterfaceOrientation(device: conditions.deviceOrientation), supported.contains(wanted) else {
            return orientation
        }
        return orientation == nil ? nil : wanted
    }

    /// Moves to `target`; the event to send when it changed and the app is in the foreground.
    private mutating func move(to target: InterfaceOrientation?, state: AppState) -> InterfaceOrientationChange? {
        guard let target, target != orientation else { return nil }
        let previous = orientation
        orientation = target
        return state == .foreground ? InterfaceOrientationChange(previous: previous, orientation: target) : nil
    }

    private static func effective(
        _ declared: [InterfaceOrientation], _ profile: DeviceProfile
    ) throws(InterfaceOrientationError) -> Set<InterfaceOrientation> {
        let effective = Set(declared).intersection(profile.interfaceOrientations)
        guard !effective.isEmpty else { throw .noSupportedOrientation(declared: declared, profile: profile) }
        return effective
    }
}
