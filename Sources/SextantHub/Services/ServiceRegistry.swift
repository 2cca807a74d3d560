/// The phone's services, each a folder of `Services/`: the one place a service is
/// registered. The order is the order each sample reaches them: the heading takes the
/// accelerometer's gravity (H1) before the orientation judge and the motion stream see the
/// same reading, as before; significant changes go out before the visits of the same fix.
enum ServiceRegistry {
    static var all: [any PhoneService.Type] {
        [
            HeadingService.self,
            OrientationService.self,
            PostureService.self,
            MotionService.self,
            SatellitesService.self,
            SignificantChangesService.self,
            VisitsService.self,
            RegionsService.self,
            TimeZoneService.self,
            ActivityService.self,
            EnvironmentService.self,
            AltimeterService.self,
            DeviceMotionService.self,
            AndroidLocationService.self,
            DiagnosticsService.self,
            GaitService.self,
            LocationService.self,
        ]
    }
}
