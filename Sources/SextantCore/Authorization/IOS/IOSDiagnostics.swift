import SextantProtocol

/// What the `diagnostics` flags of one session are computed from (docs/platforms.md I13):
/// the authorization engine's state for it and what the hub knows of the device.
public struct IOSDiagnosticsInput: Sendable, Equatable {
    /// Location Services' switch.
    public var servicesEnabled: Bool
    /// The session's own decision, ignoring the switch (a temporary full accuracy grant in it).
    public var own: AuthorizationSnapshot
    /// Whether a location may leave the daemon for it now (L1, L8, I8, I12).
    public var mayReceiveLocations: Bool
    /// A prompt of this session is open: authorization, upgrade or temporary full accuracy.
    public var promptOpen: Bool
    /// The app had its one Always request (I6).
    public var alwaysAsked: Bool
    /// The hub's GPS source is lost, until the next fix.
    public var locationLost: Bool
    /// The device is known to be still; false until known.
    public var stationary: Bool

    public init(
        servicesEnabled: Bool, own: AuthorizationSnapshot, mayReceiveLocations: Bool, promptOpen: Bool = false,
        alwaysAsked: Bool = false, locationLost: Bool = false, stationary: Bool = false
    ) {
        (self.servicesEnabled, self.own, self.mayReceiveLocations, self.promptOpen) = (servicesEnabled, own, mayReceiveLocations, promptOpen)
        (self.alwaysAsked, self.locationLost, self.stationary) = (alwaysAsked, locationLost, stationary)
    }
}

/// I13: Apple's diagnostic flags (`CLServiceSession.Diagnostic`, `CLLocationUpdate`) of a
/// session, decided from its state alone.
public enum IOSDiagnostics {
    public static func flags(_ input: IOSDiagnosticsInput) -> WireDiagnostics {
        var flags = WireDiagnostics()
        let status = input.own.status
        let reduced = status.isAuthorized && input.own.accuracy == .reduced
        flags.authorizationDenied = status == .denied
        flags.authorizationDeniedGlobally = !input.servicesEnabled
        flags.authorizationRestricted = status == .restricted
        flags.authorizationRequestInProgress = input.promptOpen
        // I4, I6: Always was asked and the answer kept While Using (a provisional Always
        // stores authorizedAlways, so it is not a denial yet).
        flags.alwaysAuthorizationDenied = input.alwaysAsked && status == .authorizedWhenInUse
        // Approximate, and no temporary full accuracy granted (a grant makes `own` full, I9).
        flags.fullAccuracyDenied = reduced
        flags.accuracyLimited = reduced
        // I8: While Using, and the app not in use (nor running an indicator session).
        flags.insufficientlyInUse = input.servicesEnabled && status == .authorizedWhenInUse && !input.mayReceiveLocations
        // Sextant has no explicit service session (`CLServiceSession`): none is ever required.
        flags.serviceSessionRequired = false
        flags.locationUnavailable = input.locationLost
        flags.stationary = input.stationary
        return flags
    }
}

extension AuthorizationEngine {
    /// I13: the engine's part of a session's diagnostics, with what the hub knows; nil for
    /// a session it does not hold.
    public func diagnosticsInput(of session: SessionID, locationLost: Bool, stationary: Bool) -> IOSDiagnosticsInput? {
        guard let record = sessions[session] else { return nil }
        return IOSDiagnosticsInput(
            servicesEnabled: servicesEnabled, own: ownDecision(record), mayReceiveLocations: mayReceiveLocations(session),
            promptOpen: prompts.contains { $0.session == session }, alwaysAsked: iosFacets(of: record.app).alwaysAsked,
            locationLost: locationLost, stationary: stationary)
    }
}
