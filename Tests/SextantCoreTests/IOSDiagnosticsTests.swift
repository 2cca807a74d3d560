import SextantCore
import SextantProtocol
import Testing

/// I13: Apple's diagnostic flags decided from a session's state (docs/platforms.md).
@Suite("iOS diagnostics flags")
struct IOSDiagnosticsTests {
    static func raised(_ input: IOSDiagnosticsInput) -> Set<String> {
        let flags = IOSDiagnostics.flags(input)
        return Set(WireDiagnostics.flags.filter { flags[keyPath: $0.path] }.map(\.name))
    }

    static let whileUsing = AuthorizationSnapshot(status: .authorizedWhenInUse, accuracy: .full)

    @Test("I13: authorized in use with full accuracy raises nothing")
    func testI13_authorizedInUseRaisesNothing() {
        #expect(Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: Self.whileUsing, mayReceiveLocations: true)).isEmpty)
    }

    @Test("I13: denied, restricted, and the switch off each raise their own flag")
    func testI13_denials() {
        let denied = AuthorizationSnapshot(status: .denied, accuracy: .full)
        let restricted = AuthorizationSnapshot(status: .restricted, accuracy: .full)
        #expect(Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: denied, mayReceiveLocations: false)) == ["authorizationDenied"])
        #expect(Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: restricted, mayReceiveLocations: false)) == ["authorizationRestricted"])
        #expect(Self.raised(IOSDiagnosticsInput(servicesEnabled: false, own: Self.whileUsing, mayReceiveLocations: false)) == ["authorizationDeniedGlobally"])
    }

    @Test("I13: While Using out of use is insufficientlyInUse; Always out of use is not")
    func testI13_insufficientlyInUse() {
        #expect(Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: Self.whileUsing, mayReceiveLocations: false)) == ["insufficientlyInUse"])
        let always = AuthorizationSnapshot(status: .authorizedAlways, accuracy: .full)
        #expect(Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: always, mayReceiveLocations: false)).isEmpty)
    }

    @Test("I13: Always asked and While Using kept is alwaysAuthorizationDenied; provisional Always is not")
    func testI13_alwaysKeptWhileUsing() {
        #expect(
            Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: Self.whileUsing, mayReceiveLocations: true, alwaysAsked: true))
                == ["alwaysAuthorizationDenied"])
        let provisional = AuthorizationSnapshot(status: .authorizedAlways, accuracy: .full)
        #expect(Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: provisional, mayReceiveLocations: true, alwaysAsked: true)).isEmpty)
    }

    @Test("I13: reduced accuracy, a prompt, a loss, stillness; never serviceSessionRequired")
    func testI13_otherFlags() {
        let reduced = AuthorizationSnapshot(status: .authorizedWhenInUse, accuracy: .reduced)
        #expect(
            Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: reduced, mayReceiveLocations: true))
                == ["accuracyLimited", "fullAccuracyDenied"])
        let undetermined = AuthorizationSnapshot(status: .notDetermined, accuracy: .reduced)
        #expect(
            Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: undetermined, mayReceiveLocations: false, promptOpen: true))
                == ["authorizationRequestInProgress"], "no accuracy flag before an authorization")
        #expect(
            Self.raised(IOSDiagnosticsInput(servicesEnabled: true, own: Self.whileUsing, mayReceiveLocations: true, locationLost: true, stationary: true))
                == ["locationUnavailable", "stationary"])
    }
}
