import SextantCore

/// What the services read of the daemon's command line, beside the hub's own settings
/// (`HubConfiguration.services`).
public struct ServiceSettings: Sendable {
    /// `--significant-distance` and `--significant-interval` (RULES S2).
    public var significantChanges = SignificantChangeSettings()
    /// `--visit-radius` and `--visit-duration` (RULES V1, V2).
    public var visits = VisitSettings()
    /// `--max-regions` (RULES R8).
    public var maxRegionsPerApp = RegionMonitor.defaultMaxRegionsPerApp
    /// `--max-regions-per-uid`: the regions the apps of one uid other than root and the
    /// daemon's own may monitor in all (docs/security.md).
    public var maxRegionsPerUID = defaultMaxRegionsPerUID
    /// `--time-zone-table`: the boundary table and the zones' rules (RULES Z1–Z10).
    public var timeZone = TimeZoneSettings()

    public static let defaultMaxRegionsPerUID = 1000

    /// The sea-level pressure (hPa) the altimeter derives pressure from a fix's altitude with (RULES B2).
    public var seaLevelPressure = StandardAtmosphere.seaLevelPressure

    /// `location.once`'s time-out and the fan-out's sessions per turn (tests' settings).
    public var location = LocationSettings()

    public init() {}
}
