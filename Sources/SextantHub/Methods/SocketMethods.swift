import SextantProtocol

/// The methods each socket serves besides the services' own (each service lists its methods:
/// `HubService.appMethods`, `.controlMethods`).
extension MethodTable {
    /// The app socket (PROTOCOL "App socket"): any local program.
    static func appSocket(_ services: [any RPCMethod.Type] = ServiceRegistry.all.flatMap { $0.appMethods }) -> MethodTable {
        MethodTable(
            .app,
            [
                HelloMethod.self, AuthorizationGetMethod.self, AuthorizationRequestMethod.self,
                AppUpdateMethod.self,
                AuthorizationRequestTemporaryFullAccuracyMethod.self,
            ] + services)
    }

    /// The control socket (PROTOCOL "Control socket"): `sextantctl`, the daemon's own user and root.
    static func controlSocket(_ services: [any RPCMethod.Type] = ServiceRegistry.all.flatMap { $0.controlMethods }) -> MethodTable {
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
                PermissionsExplainMethod.self,
                TimeGetMethod.self, TimeSetMethod.self, TimeAdvanceMethod.self, TimeResetMethod.self,
            ] + services)
    }
}
