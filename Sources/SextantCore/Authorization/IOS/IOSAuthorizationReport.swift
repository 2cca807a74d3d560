import SextantProtocol

/// An app's iOS facets and running timers, for `permissions explain` (issue 39 point 4):
/// what the app cannot see of its own authorization.
public struct IOSAuthorizationReport: Sendable, Equatable {
    /// Always given provisionally (I2): Settings says While Using.
    public var provisional: Bool
    /// The install had its one Always request (I6).
    public var alwaysAsked: Bool
    /// Some session of the app holds an Allow Once grant (L5, I8).
    public var oneTime: Bool
    /// The stored accuracy, nil without a stored decision.
    public var accuracy: LocationAccuracy?
    /// Purpose keys granted full accuracy in some live session (I9), sorted.
    public var temporaryFullAccuracyKeys: [String]
    /// What will fire, and when, by the device's monotonic clock (nanoseconds).
    public var timers: [Timer]

    public struct Timer: Sendable, Equatable {
        /// `allowOnceExpiry` or `temporaryFullAccuracyExpiry` (I8).
        public var name: String
        public var session: SessionID
        public var deadline: Int64

        public init(name: String, session: SessionID, deadline: Int64) {
            self.name = name
            self.session = session
            self.deadline = deadline
        }
    }
}

extension AuthorizationEngine {
    /// The report of `app`'s iOS facets and timers, now: a function of the engine's state.
    public func iosReport(app: String) -> IOSAuthorizationReport {
        let facets = iosFacets(of: app)
        let own = sessions.filter { $0.value.app == app }.sorted { $0.key < $1.key }
        var timers: [IOSAuthorizationReport.Timer] = []
        for (id, record) in own {
            guard record.state == .background, !record.ios.indicatorSession, !record.ios.launchedInBackground,
                let since = record.backgroundSince
            else { continue }
            let deadline = since + allowOnceBackgroundLimit
            if record.allowOnce != nil { timers.append(.init(name: "allowOnceExpiry", session: id, deadline: deadline)) }
            if !record.ios.temporaryFullAccuracy.isEmpty {
                timers.append(.init(name: "temporaryFullAccuracyExpiry", session: id, deadline: deadline))
            }
        }
        return IOSAuthorizationReport(
            provisional: facets.provisional, alwaysAsked: facets.alwaysAsked, oneTime: own.contains { $0.value.allowOnce != nil },
            accuracy: permissions[app]?.accuracy, temporaryFullAccuracyKeys: own.flatMap(\.value.ios.temporaryFullAccuracy).sorted(),
            timers: timers)
    }
}
