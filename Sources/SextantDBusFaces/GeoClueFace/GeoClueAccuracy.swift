import SextantCore
import SextantProtocol

/// GeoClue's accuracy levels (`GClueAccuracyLevel` in its public headers), the numbers a
/// client writes to `RequestedAccuracyLevel` and reads from `AvailableAccuracyLevel`.
enum GeoClueAccuracyLevel: UInt32, Comparable, CaseIterable {
    case none = 0
    case country = 1
    case city = 4
    case neighborhood = 5
    case street = 6
    case exact = 8

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The level a client starts with when it asks for `requested`, as GeoClue settles it
    /// before it starts one: clamped to COUNTRY...EXACT, and a number between two levels
    /// (2, 3, 7) taken down to the level below it. NONE and 0 become COUNTRY.
    static func settled(_ requested: UInt32) -> GeoClueAccuracyLevel {
        let clamped = min(max(requested, GeoClueAccuracyLevel.country.rawValue), GeoClueAccuracyLevel.exact.rawValue)
        return allCases.last { $0.rawValue <= clamped } ?? .country
    }

    /// What Sextant serves a client at this level, before its grant is considered: COUNTRY
    /// and CITY ask for no better than a town, which is Sextant's reduced accuracy (the 2 km
    /// grid, RULES L10); NEIGHBORHOOD and finer ask for more than the grid gives.
    var sextantAccuracy: LocationAccuracy { self <= .city ? .reduced : .full }

    /// The desired accuracy, in metres, of the location stream that serves a client at
    /// this level: the stream serves reduced at `LocationFudger.minimumAccuracy` or more.
    var streamDesiredAccuracy: Double { sextantAccuracy == .reduced ? LocationFudger.minimumAccuracy : 0 }

    /// What a client at this level gets when Sextant granted its app `granted`: the coarser
    /// of the two. A client that asked EXACT of an app granted reduced gets the grid, as a
    /// GeoClue agent may lower a client's level; one that asked CITY gets the grid even when
    /// the app may have full accuracy.
    func served(granted: LocationAccuracy) -> LocationAccuracy {
        granted == .reduced || sextantAccuracy == .reduced ? .reduced : .full
    }

    /// The manager's `AvailableAccuracyLevel`: EXACT while Location Services are on (every
    /// source Sextant has is a GPS), NONE while they are off (RULES L1: no location leaves).
    static func available(servicesEnabled: Bool) -> GeoClueAccuracyLevel { servicesEnabled ? .exact : .none }
}
