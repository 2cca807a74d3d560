import SextantProtocol

/// Where an Android app stands for location delivery: AOSP counts an app as foreground when
/// its importance is FOREGROUND_SERVICE or better (`FOREGROUND_IMPORTANCE_CUTOFF`), i.e. it
/// is visible or runs a foreground service.
public enum AndroidAppState: String, Sendable, Equatable, CaseIterable {
    /// An activity is visible.
    case foreground
    /// Not visible, but running a foreground service declared `foregroundServiceType="location"`.
    case locationForegroundService
    /// Not visible, running a foreground service of another type.
    case otherForegroundService
    /// Neither visible nor running a foreground service.
    case background

    /// AN28: not throttled: importance FOREGROUND_SERVICE or better.
    public var isForegroundForLocation: Bool { self != .background }
}

/// What the app was granted: precise (fine) or approximate (coarse), and whether
/// "Allow all the time" (background location) too.
public struct AndroidLocationGrant: Sendable, Equatable {
    public var precise: Bool
    public var background: Bool
    /// The device's API level (`--android-api`).
    public var api: Int

    public init(precise: Bool, background: Bool, api: Int) {
        self.precise = precise
        self.background = background
        self.api = api
    }

    /// AN32: whether a fix may reach the app now. From Android 10 (API 29) a foreground-only
    /// ("While using the app") grant is an app op in MODE_FOREGROUND: it holds while an
    /// activity is visible or a foreground service of type location runs, and noteOp fails
    /// otherwise, so the fix is dropped.
    public func mayReceive(in state: AndroidAppState) -> Bool {
        if background || api < FusedRequestRules.firstForegroundOnlyAPI { return true }
        return state == .foreground || state == .locationForegroundService
    }
}

/// The numbers and the request arithmetic of AOSP's
/// `services/core/java/com/android/server/location/provider/LocationProviderManager.java`.
public enum FusedRequestRules {
    /// AN25: `MIN_COARSE_INTERVAL_MS`: the fastest a coarse app is served.
    public static let minCoarseIntervalMillis: Int64 = 10 * 60 * 1000
    /// AN28: `DEFAULT_BACKGROUND_THROTTLE_INTERVAL_MS` (SystemSettingsHelper).
    public static let backgroundThrottleIntervalMillis: Int64 = 30 * 60 * 1000
    /// AN26: `FASTEST_INTERVAL_JITTER_PERCENTAGE`: a fix may come this fraction of the
    /// interval early and still pass the minimum update interval…
    public static let fastestIntervalJitterFraction = 0.10
    /// …but never more than `MAX_FASTEST_INTERVAL_JITTER_MS` early.
    public static let maxFastestIntervalJitterMillis: Int64 = 30 * 1000
    /// AN29: the provider's own scheduling slack (`MAX_PROVIDER_SCHEDULING_JITTER_MS`,
    /// LocationManagerService before Android 12).
    public static let providerSchedulingJitterMillis: Int64 = 100
    /// AN33: `DEFAULT_LAST_LOCATION_MAX_AGE_MS` (LocationManagerService, Android 10) /
    /// `DEFAULT_MAX_LAST_LOCATION_AGE_MS` (SettingsHelper, Android 11).
    public static let lastLocationMaxAgeMillis: Int64 = 20 * 60 * 1000
    /// Android 10: background location became a permission of its own.
    public static let firstForegroundOnlyAPI = 29
    /// Android 12: the last location's age limit is gone (getLastLocation asks for any age).
    public static let firstAPIWithoutLastLocationAge = 31
    /// AN35: `MAX_CURRENT_LOCATION_AGE_MS` (LocationProviderManager): getCurrentLocation
    /// answers at once with a last location no older than this.
    public static let maxCurrentLocationAgeMillis: Int64 = 10 * 1000
    /// AN35: `GET_CURRENT_LOCATION_MAX_TIMEOUT_MS`: the longest getCurrentLocation waits.
    public static let currentLocationMaxTimeoutMillis: Int64 = 30 * 1000

    /// AN37: the coarse last location moves on only to a coarse fix more than 10 min newer
    /// (`LastLocation.calculateNextCoarse`, `MIN_COARSE_INTERVAL_MS`), so that asking for the
    /// last or current location gives an approximate app no more than its stream would.
    public static func nextCoarse(_ old: LocationFix?, _ new: LocationFix) -> LocationFix {
        guard let old else { return new }
        let newerMillis = (new.time.nanoseconds &- old.time.nanoseconds) / 1_000_000
        return newerMillis > minCoarseIntervalMillis ? new : old
    }

    /// AN35: whether `last` is young enough at `now` for getCurrentLocation to answer with it.
    public static func isCurrent(_ last: LocationFix, now: Timestamp) -> Bool {
        (now.nanoseconds &- last.time.nanoseconds) / 1_000_000 <= maxCurrentLocationAgeMillis
    }

    /// The request as the provider serves it (`calculateProviderLocationRequest`): a coarse
    /// app's interval and minimum update interval raised to 10 min (AN25); an app neither
    /// visible nor running a foreground service has its interval raised to 30 min (AN28).
    public static func served(_ request: FusedLocationRequest, precise: Bool, state: AndroidAppState) -> FusedLocationRequest {
        var served = request
        if !precise {
            served.priority = request.priority == .passive ? .passive : .lowPower
            served.intervalMillis = max(request.intervalMillis, minCoarseIntervalMillis)
            if request.effectiveMinUpdateIntervalMillis < minCoarseIntervalMillis {
                served.minUpdateIntervalMillis = minCoarseIntervalMillis
            }
        }
        if !state.isForegroundForLocation {
            served.intervalMillis = max(served.intervalMillis, backgroundThrottleIntervalMillis)
        }
        return served
    }

    /// AN26: how early a fix may come: 10 % of the interval, at most 30 s.
    public static func jitterMillis(interval: Int64) -> Int64 {
        min(Int64(fastestIntervalJitterFraction * Double(interval)), maxFastestIntervalJitterMillis)
    }

    /// AN26, AN27: whether `fix` passes the served request's minimum update interval and
    /// distance, after `previous` (the last fix delivered or held; nil passes).
    public static func passes(_ fix: LocationFix, after previous: LocationFix?, served: FusedLocationRequest) -> Bool {
        guard let previous else { return true }
        let elapsed = (fix.time.nanoseconds &- previous.time.nanoseconds) / 1_000_000
        if elapsed < served.effectiveMinUpdateIntervalMillis - jitterMillis(interval: served.intervalMillis) { return false }
        if served.minUpdateDistanceMeters > 0, Geo.distance(fix, previous) <= served.minUpdateDistanceMeters { return false }
        return true
    }

    /// AN33: the last known location an app may have at `now`: nil when its grant does not
    /// let it hear a fix in its state (AN32); on Android 10 and 11, nil too when the grant is
    /// foreground-only and the fix is more than 20 min old.
    public static func lastLocation(_ last: LocationFix?, now: Timestamp, grant: AndroidLocationGrant, state: AndroidAppState) -> LocationFix? {
        guard let last, grant.mayReceive(in: state) else { return nil }
        let ageLimited = !grant.background && (firstForegroundOnlyAPI..<firstAPIWithoutLastLocationAge).contains(grant.api)
        let ageMillis = (now.nanoseconds &- last.time.nanoseconds) / 1_000_000
        if ageLimited, ageMillis > lastLocationMaxAgeMillis { return nil }
        return last
    }
}
