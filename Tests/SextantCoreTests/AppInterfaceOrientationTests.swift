import SextantCore
import SextantProtocol
import Testing

// Expectations come from RULES "Interface orientation" (O6–O11). Mirroring: device
// landscapeLeft shows interface landscapeRight, device landscapeRight interface landscapeLeft.

@Suite("Interface orientation per app (RULES O6–O11)")
struct AppInterfaceOrientationTests {
    // MARK: - Effective set

    @Test("Profiles: phone and foldable allow portrait and both landscapes, tablet all four")
    func testProfileOrientations() {
        #expect(Set(DeviceProfile.phone.interfaceOrientations) == [.portrait, .landscapeLeft, .landscapeRight])
        #expect(Set(DeviceProfile.foldable.interfaceOrientations) == [.portrait, .landscapeLeft, .landscapeRight])
        #expect(Set(DeviceProfile.tablet.interfaceOrientations) == Set(InterfaceOrientation.allCases))
    }

    @Test("Effective set: declared ∩ profile; nil declares all the profile allows")
    func testEffectiveSet() throws {
        let all = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait, on: .tablet))
        #expect(all.supported == Set(InterfaceOrientation.allCases))
        let phone = try TestApp(
            declared: [.portraitUpsideDown, .landscapeLeft], state: .foreground, conditions: device(.portrait, on: .phone))
        #expect(phone.supported == [.landscapeLeft])
        #expect(phone.declared == [.portraitUpsideDown, .landscapeLeft])
    }

    @Test(
        "Effective set: empty is an error that the hub reports as -32602",
        arguments: [DeviceProfile.phone, .foldable])
    func testEmptyEffectiveSetIsInvalidParams(profile: DeviceProfile) throws {
        #expect(throws: InterfaceOrientationError.noSupportedOrientation(declared: [.portraitUpsideDown], profile: profile)) {
            try TestApp(declared: [.portraitUpsideDown], state: .foreground, conditions: device(.portrait, on: profile))
        }
        #expect(throws: InterfaceOrientationError.self) {
            try TestApp(declared: [], state: .foreground, conditions: device(.portrait, on: profile))
        }
        let error = InterfaceOrientationError.noSupportedOrientation(declared: [.portraitUpsideDown], profile: profile)
        #expect(error.rpcError.code == -32602)

        // A refused change leaves everything as it was.
        var app = try TestApp(declared: [.portrait], state: .foreground, conditions: device(.portrait, on: profile))
        #expect(throws: InterfaceOrientationError.self) {
            try app.setSupported([.portraitUpsideDown], device(.portrait, on: profile))
        }
        #expect(app.declared == [.portrait])
        #expect(app.supported == [.portrait])
    }

    // MARK: - O6 launch

    struct LaunchCase: Sendable, CustomTestStringConvertible {
        var profile: DeviceProfile
        var declared: [InterfaceOrientation]?
        var device: DeviceOrientation
        var lastUpright: DeviceOrientation?
        var rotationLock = false
        var expected: InterfaceOrientation
        var testDescription: String {
            "\(profile) \(declared.map { "\($0.map(\.rawValue))" } ?? "all") device \(device) (last upright \(lastUpright.map(\.rawValue) ?? "none"))\(rotationLock ? " locked" : "") → \(expected)"
        }
    }

    static let launchCases: [LaunchCase] = [
        // The interface that goes with the device's upright orientation, mirrored for landscapes.
        LaunchCase(profile: .phone, declared: nil, device: .portrait, lastUpright: .portrait, expected: .portrait),
        LaunchCase(profile: .phone, declared: nil, device: .landscapeLeft, lastUpright: .landscapeLeft, expected: .landscapeRight),
        LaunchCase(profile: .phone, declared: nil, device: .landscapeRight, lastUpright: .landscapeRight, expected: .landscapeLeft),
        LaunchCase(profile: .tablet, declared: nil, device: .portraitUpsideDown, lastUpright: .portraitUpsideDown, expected: .portraitUpsideDown),
        // Not supported (a phone has no upside-down interface): portrait.
        LaunchCase(profile: .phone, declared: nil, device: .portraitUpsideDown, lastUpright: .portraitUpsideDown, expected: .portrait),
        LaunchCase(profile: .foldable, declared: nil, device: .portraitUpsideDown, lastUpright: .portraitUpsideDown, expected: .portrait),
        LaunchCase(profile: .tablet, declared: [.portrait], device: .landscapeLeft, lastUpright: .landscapeLeft, expected: .portrait),
        // faceUp, faceDown and unknown count as the last upright orientation, else portrait.
        LaunchCase(profile: .phone, declared: nil, device: .faceUp, lastUpright: .landscapeLeft, expected: .landscapeRight),
        LaunchCase(profile: .phone, declared: nil, device: .faceDown, lastUpright: .landscapeRight, expected: .landscapeLeft),
        LaunchCase(profile: .phone, declared: nil, device: .faceUp, lastUpright: nil, expected: .portrait),
        LaunchCase(profile: .tablet, declared: nil, device: .unknown, lastUpright: nil, expected: .portrait),
        // Landscape-only apps: landscapeRight (Home on the right) if supported, else landscapeLeft.
        LaunchCase(profile: .phone, declared: [.landscapeLeft, .landscapeRight], device: .portrait, lastUpright: .portrait, expected: .landscapeRight),
        LaunchCase(profile: .phone, declared: [.landscapeLeft, .landscapeRight], device: .landscapeRight, lastUpright: .landscapeRight, expected: .landscapeLeft),
        LaunchCase(profile: .phone, declared: [.landscapeLeft], device: .portrait, lastUpright: .portrait, expected: .landscapeLeft),
        LaunchCase(profile: .phone, declared: [.landscapeLeft], device: .landscapeLeft, lastUpright: .landscapeLeft, expected: .landscapeLeft),
        LaunchCase(profile: .tablet, declared: [.portraitUpsideDown, .landscapeLeft], device: .portrait, lastUpright: .portrait, expected: .landscapeLeft),
        // Only upside down (tablet): portraitUpsideDown.
        LaunchCase(profile: .tablet, declared: [.portraitUpsideDown], device: .landscapeLeft, lastUpright: .landscapeLeft, expected: .portraitUpsideDown),
        // O9: under the rotation lock the device is taken as portrait.
        LaunchCase(profile: .phone, declared: nil, device: .landscapeLeft, lastUpright: .landscapeLeft, rotationLock: true, expected: .portrait),
        LaunchCase(profile: .tablet, declared: [.portraitUpsideDown, .landscapeLeft, .landscapeRight], device: .portraitUpsideDown, lastUpright: .portraitUpsideDown, rotationLock: true, expected: .landscapeRight),
    ]

    @Test("O6: launch at hello in the foreground", arguments: launchCases)
    func testO6_launchAtHello(_ c: LaunchCase) throws {
        let conditions = InterfaceConditions(
            profile: c.profile, deviceOrientation: c.device, lastUprightDeviceOrientation: c.lastUpright, rotationLock: c.rotationLock)
        let app = try TestApp(declared: c.declared, state: .foreground, conditions: conditions)
        #expect(app.orientation == c.expected)
    }

    @Test("O6: an app that said hello in the background launches the first time it comes to the foreground", arguments: launchCases)
    func testO6_launchAtFirstForeground(_ c: LaunchCase) throws {
        let conditions = InterfaceConditions(
            profile: c.profile, deviceOrientation: c.device, lastUprightDeviceOrientation: c.lastUpright, rotationLock: c.rotationLock)
        // At hello the device is elsewhere: the launch reads the conditions of the moment.
        var app = try TestApp(declared: c.declared, state: .background, conditions: device(.portrait, on: c.profile))
        #expect(app.orientation == nil)
        #expect(app.deviceChanged(conditions) == nil)
        #expect(app.setState(.foreground, conditions) == InterfaceOrientationChange(previous: nil, orientation: c.expected))
        #expect(app.orientation == c.expected)
    }

    // MARK: - O7 following

    struct Step: Sendable {
        var device: DeviceOrientation
        /// The interface event expected, nil for none.
        var event: InterfaceOrientationChange?
    }

    static func step(_ device: DeviceOrientation, _ from: InterfaceOrientation? = nil, _ to: InterfaceOrientation? = nil) -> Step {
        Step(device: device, event: to.map { InterfaceOrientationChange(previous: from, orientation: $0) })
    }

    @Test("O7: a phone app follows portrait and both landscapes in one step, mirrored; upside down and flat change nothing")
    func testO7_followOnPhone() throws {
        try run(
            profile: .phone, declared: nil, start: .portrait,
            [
                Self.step(.landscapeLeft, .portrait, .landscapeRight),
                // 180° in one step.
                Self.step(.landscapeRight, .landscapeRight, .landscapeLeft),
                Self.step(.landscapeLeft, .landscapeLeft, .landscapeRight),
                // Unsupported on a phone: stays.
                Self.step(.portraitUpsideDown),
                Self.step(.faceUp),
                Self.step(.faceDown),
                Self.step(.portrait, .landscapeRight, .portrait),
                Self.step(.faceUp),
                // Back to the same upright orientation: no change, no event.
                Self.step(.portrait),
            ])
    }

    @Test("O7: a tablet app turns 180° between portrait and portraitUpsideDown in one step")
    func testO7_followOnTablet() throws {
        try run(
            profile: .tablet, declared: nil, start: .portrait,
            [
                Self.step(.portraitUpsideDown, .portrait, .portraitUpsideDown),
                Self.step(.portrait, .portraitUpsideDown, .portrait),
                Self.step(.landscapeRight, .portrait, .landscapeLeft),
                Self.step(.portraitUpsideDown, .landscapeLeft, .portraitUpsideDown),
            ])
    }

    @Test("O7: a portrait-only app never moves; a landscape-only app follows between its two landscapes only")
    func testO7_restrictedSets() throws {
        try run(
            profile: .phone, declared: [.portrait], start: .portrait,
            [Self.step(.landscapeLeft), Self.step(.landscapeRight), Self.step(.portrait)])
        try run(
            profile: .phone, declared: [.landscapeLeft, .landscapeRight], start: .portrait,
            [
                Self.step(.portrait),  // launched in landscapeRight (O6), stays
                Self.step(.landscapeRight, .landscapeRight, .landscapeLeft),
                Self.step(.portrait),
                Self.step(.landscapeLeft, .landscapeLeft, .landscapeRight),
            ])
    }

    // MARK: - O8 interfaceLocked, O9 rotation lock, O9a unfreezing

    @Test("O8: a frozen app hears no interface events; unfreezing moves it at once (O9a) to the device's orientation")
    func testO8_interfaceLocked() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
        #expect(app.setInterfaceLocked(true, device(.portrait)) == nil)
        #expect(app.interfaceLocked)
        #expect(app.deviceChanged(device(.landscapeLeft)) == nil)
        #expect(app.deviceChanged(device(.landscapeRight)) == nil)
        #expect(app.orientation == .portrait)
        #expect(
            app.setInterfaceLocked(false, device(.landscapeRight))
                == InterfaceOrientationChange(previous: .portrait, orientation: .landscapeLeft))
        // Unfreezing where the interface already is: no event.
        _ = app.setInterfaceLocked(true, device(.landscapeRight))
        #expect(app.setInterfaceLocked(false, device(.landscapeRight)) == nil)
        // Setting the same value again changes nothing.
        #expect(app.setInterfaceLocked(false, device(.portrait)) == nil)
        #expect(app.orientation == .landscapeLeft)
    }

    @Test("O9: the rotation lock freezes every app; turning it off moves each foreground app at once (O9a)")
    func testO9_rotationLock() throws {
        var apps = try [
            TestApp(declared: nil, state: .foreground, conditions: device(.portrait)),
            TestApp(declared: [.portrait], state: .foreground, conditions: device(.portrait)),
            TestApp(declared: nil, state: .background, conditions: device(.portrait)),
        ]
        let locked = device(.landscapeLeft, rotationLock: true)
        for i in apps.indices { #expect(apps[i].deviceChanged(device(.portrait, rotationLock: true)) == nil) }
        for i in apps.indices { #expect(apps[i].deviceChanged(locked) == nil) }
        #expect(apps.map(\.orientation) == [.portrait, .portrait, nil])
        let unlocked = device(.landscapeLeft)
        let events = apps.indices.map { apps[$0].deviceChanged(unlocked) }
        #expect(events == [InterfaceOrientationChange(previous: .portrait, orientation: .landscapeRight), nil, nil])
    }

    @Test("O9a: turning the rotation lock off does not unfreeze an app that froze itself")
    func testO9a_rotationLockOffKeepsInterfaceLocked() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
        _ = app.setInterfaceLocked(true, device(.portrait))
        #expect(app.deviceChanged(device(.landscapeLeft, rotationLock: true)) == nil)
        #expect(app.deviceChanged(device(.landscapeLeft)) == nil)
        // Nor does unlocking the app while the rotation lock holds it.
        var held = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
        _ = held.setInterfaceLocked(true, device(.portrait, rotationLock: true))
        #expect(held.setInterfaceLocked(false, device(.landscapeLeft, rotationLock: true)) == nil)
        #expect(held.orientation == .portrait)
        // Both off: it moves.
        #expect(held.deviceChanged(device(.landscapeLeft)) == InterfaceOrientationChange(previous: .portrait, orientation: .landscapeRight))
    }

    @Test("O9a: unfreezing while the device lies flat gives what O7 gives for faceUp: nothing")
    func testO9a_unfreezeWhileFlat() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
        _ = app.setInterfaceLocked(true, device(.portrait))
        let flatAfterLandscape = InterfaceConditions(
            profile: .phone, deviceOrientation: .faceUp, lastUprightDeviceOrientation: .landscapeLeft, rotationLock: false)
        #expect(app.setInterfaceLocked(false, flatAfterLandscape) == nil)
        #expect(app.orientation == .portrait)
    }

    // MARK: - O10 supported set changes

    @Test("O10: losing the current orientation moves at once as at launch; gaining one moves nothing")
    func testO10_supportedSetChanges() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.landscapeLeft))
        #expect(app.orientation == .landscapeRight)
        // Still supported: stays.
        #expect(try app.setSupported([.portrait, .landscapeRight], device(.landscapeLeft)) == nil)
        // Gone: O6 gives portrait (landscapeRight is what the device wants, but unsupported).
        #expect(
            try app.setSupported([.portrait, .landscapeLeft], device(.landscapeLeft))
                == InterfaceOrientationChange(previous: .landscapeRight, orientation: .portrait))
        // Gaining the device's orientation back does not move it (O7 needs a new device orientation).
        #expect(try app.setSupported([.portrait, .landscapeLeft, .landscapeRight], device(.landscapeLeft)) == nil)
        #expect(app.orientation == .portrait)
        #expect(app.deviceChanged(device(.landscapeLeft)) == InterfaceOrientationChange(previous: .portrait, orientation: .landscapeRight))
    }

    @Test("O10: a frozen app still leaves an orientation it no longer supports (under the rotation lock, device as portrait)")
    func testO10_whileFrozen() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.landscapeLeft))
        _ = app.setInterfaceLocked(true, device(.landscapeLeft))
        #expect(
            try app.setSupported([.landscapeLeft, .portrait], device(.landscapeRight))
                == InterfaceOrientationChange(previous: .landscapeRight, orientation: .landscapeLeft))
        var held = try TestApp(declared: nil, state: .foreground, conditions: device(.landscapeLeft))
        #expect(
            try held.setSupported([.portrait, .landscapeLeft], device(.landscapeLeft, rotationLock: true))
                == InterfaceOrientationChange(previous: .landscapeRight, orientation: .portrait))
    }

    @Test("O10 with O11: in the background the move is silent; the return to the foreground reports from there")
    func testO10_inBackground() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.landscapeLeft))
        #expect(app.setState(.background, device(.landscapeLeft)) == nil)
        #expect(try app.setSupported([.portrait, .landscapeLeft], device(.landscapeLeft)) == nil)
        #expect(app.orientation == .portrait)
        #expect(app.setState(.foreground, device(.landscapeRight)) == InterfaceOrientationChange(previous: .portrait, orientation: .landscapeLeft))
    }

    @Test("O10: an app not launched yet only records the set")
    func testO10_beforeLaunch() throws {
        var app = try TestApp(declared: nil, state: .background, conditions: device(.portrait))
        #expect(try app.setSupported([.landscapeLeft], device(.portrait)) == nil)
        #expect(app.orientation == nil)
        #expect(app.setState(.foreground, device(.portrait)) == InterfaceOrientationChange(previous: nil, orientation: .landscapeLeft))
    }

    // MARK: - O11 background and foreground

    @Test("O11: background apps hear nothing; back in the foreground they jump in one event to the device's orientation")
    func testO11_backgroundAndReturn() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
        #expect(app.setState(.background, device(.portrait)) == nil)
        #expect(app.state == .background)
        for orientation in [DeviceOrientation.landscapeLeft, .portrait, .landscapeRight] {
            #expect(app.deviceChanged(device(orientation)) == nil)
        }
        #expect(app.orientation == .portrait)
        #expect(
            app.setState(.foreground, device(.landscapeRight))
                == InterfaceOrientationChange(previous: .portrait, orientation: .landscapeLeft))
        // Same state again: nothing.
        #expect(app.setState(.foreground, device(.portrait)) == nil)
    }

    @Test("O11: back where it was, or to an orientation it does not support, or to a flat device: no event")
    func testO11_returnWithoutChange() throws {
        for conditions in [
            device(.portrait), device(.portraitUpsideDown),
            InterfaceConditions(profile: .phone, deviceOrientation: .faceUp, lastUprightDeviceOrientation: .landscapeLeft, rotationLock: false),
        ] {
            var app = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
            _ = app.setState(.background, device(.portrait))
            #expect(app.setState(.foreground, conditions) == nil, "\(conditions.deviceOrientation)")
            #expect(app.orientation == .portrait)
        }
    }

    @Test("O11 with O8/O9: a frozen app coming back stays where it was")
    func testO11_returnWhileFrozen() throws {
        var app = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
        _ = app.setState(.background, device(.portrait))
        #expect(app.setState(.foreground, device(.landscapeLeft, rotationLock: true)) == nil)
        #expect(app.orientation == .portrait)
        var locked = try TestApp(declared: nil, state: .foreground, conditions: device(.portrait))
        _ = locked.setInterfaceLocked(true, device(.portrait))
        _ = locked.setState(.background, device(.portrait))
        #expect(locked.setState(.foreground, device(.landscapeLeft)) == nil)
    }

    // MARK: - Helpers

    /// Launches an app in the foreground with the device in `start`, then feeds the steps.
    private func run(
        profile: DeviceProfile, declared: [InterfaceOrientation]?, start: DeviceOrientation, _ steps: [Step],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var app = try TestApp(declared: declared, state: .foreground, conditions: device(start, on: profile))
        var lastUpright: DeviceOrientation? = start
        for (index, step) in steps.enumerated() {
            if step.device.isUpright { lastUpright = step.device }
            let conditions = InterfaceConditions(
                profile: profile, deviceOrientation: step.device, lastUprightDeviceOrientation: lastUpright, rotationLock: false)
            #expect(app.deviceChanged(conditions) == step.event, "step \(index): \(step.device)", sourceLocation: sourceLocation)
        }
    }
}

/// Conditions with the device at rest in `orientation` (its own last upright one when upright).
private func device(_ orientation: DeviceOrientation, on profile: DeviceProfile = .phone, rotationLock: Bool = false) -> InterfaceConditions {
    InterfaceConditions(
        profile: profile, deviceOrientation: orientation,
        lastUprightDeviceOrientation: orientation.isUpright ? orientation : nil, rotationLock: rotationLock)
}

/// An app's interface orientation with the foreground/background state that the hub keeps
/// for it elsewhere (the authorization engine owns it there), so that these tests read as
/// the rules do.
private struct TestApp: Equatable {
    private var interface: AppInterfaceOrientation
    private(set) var state: AppState

    init(declared: [InterfaceOrientation]?, state: AppState, conditions: InterfaceConditions) throws(InterfaceOrientationError) {
        interface = try AppInterfaceOrientation(declared: declared, state: state, conditions: conditions)
        self.state = state
    }

    var orientation: InterfaceOrientation? { interface.orientation }
    var declared: [InterfaceOrientation] { interface.declared }
    var supported: Set<InterfaceOrientation> { interface.supported }
    var interfaceLocked: Bool { interface.interfaceLocked }

    mutating func deviceChanged(_ conditions: InterfaceConditions) -> InterfaceOrientationChange? {
        interface.deviceChanged(conditions, state: state)
    }

    mutating func setState(_ newState: AppState, _ conditions: InterfaceConditions) -> InterfaceOrientationChange? {
        guard newState != state else { return nil }
        state = newState
        return interface.stateChanged(to: newState, conditions)
    }

    mutating func setSupported(
        _ declared: [InterfaceOrientation], _ conditions: InterfaceConditions
    ) throws(InterfaceOrientationError) -> InterfaceOrientationChange? {
        try interface.setSupported(declared, conditions, state: state)
    }

    mutating func setInterfaceLocked(_ locked: Bool, _ conditions: InterfaceConditions) -> InterfaceOrientationChange? {
        interface.setInterfaceLocked(locked, conditions, state: state)
    }
}
