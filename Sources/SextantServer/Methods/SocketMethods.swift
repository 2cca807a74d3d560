import SextantProtocol

/// The methods each socket serves: the one place a new method is registered.
extension MethodTable {
    /// The app socket (PROTOCOL "App socket"): any local program.
    static func appSocket() -> MethodTable {
        MethodTable(
            .app,
            [
                HelloMethod.self, AuthorizationGetMethod.self, AuthorizationRequestMethod.self,
                LocationStartMethod.self, LocationStopMethod.self, LocationOnceMethod.self,
                SubscriptionMethod<OrientationStart>.self, SubscriptionMethod<OrientationStop>.self,
                SubscriptionMethod<PostureStart>.self, SubscriptionMethod<PostureStop>.self,
                AppUpdateMethod.self,
                MovementServiceMethod<SignificantChangesStart>.self, MovementServiceMethod<SignificantChangesStop>.self,
                MovementServiceMethod<VisitsStart>.self, MovementServiceMethod<VisitsStop>.self,
                RegionMonitorMethod.self, RegionStopMethod.self, RegionListMethod.self, RegionStateMethod.self,
                HeadingStartMethod.self, HeadingStopMethod.self,
                SubscriptionMethod<SatellitesStart>.self, SubscriptionMethod<SatellitesStop>.self,
                MotionStartMethod.self, MotionStopMethod.self,
            ])
    }

    /// The control socket (PROTOCOL "Control socket"): `sextantctl`, the daemon's own user and root.
    static func controlSocket() -> MethodTable {
        MethodTable(
            .control,
            [
                StatusMethod.self, WatchMethod.self, ServicesSetMethod.self,
                PermissionsListMethod.self, PermissionsSetMethod.self, PermissionsResetMethod.self,
                PermissionsOwnersMethod.self, PermissionsUnbindMethod.self,
                PromptsListMethod.self, PromptsAnswerMethod.self, PromptsPolicyMethod.self,
                AppsListMethod.self, AppsUpdateMethod.self, DeviceSetMethod.self, DeviceRotationLockMethod.self,
                ReplayStartMethod.self, ReplayStopMethod.self, ReplayStatusMethod.self,
                ReplayPauseMethod.self, ReplayResumeMethod.self, ReplayStepMethod.self, ReplaySeekMethod.self,
                RecordStartMethod.self, RecordStopMethod.self, GNSSProfileMethod.self,
                RegionsListMethod.self, RegionsAddMethod.self, RegionsRemoveMethod.self,
            ])
    }
}
