import Foundation
import SextantCore
import SextantProtocol

/// A true track for the GNSS profile's tests: a walk north-east from Paris at 1.4 m/s,
/// one fix a second (or at `interval`), each with an altitude; and the error of a reported
/// fix against its truth, in metres north, east and up, by the conversion's inverse.
enum GNSSTrack {
    static let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)

    static func truth(at second: Double) -> LocationFix {
        let metres = 1.4 * second
        return LocationFix(
            latitude: 48.85837 + metres * 0.7 / LocationFudger.metresPerDegreeLatitude, longitude: 2.29448 + metres * 0.0000095,
            altitude: 35 + second.truncatingRemainder(dividingBy: 7), horizontalAccuracy: 5, verticalAccuracy: 3, speed: 1.4, course: 45,
            time: Timestamp(nanoseconds: start.nanoseconds + Int64((second * 1e9).rounded())))
    }

    /// Each second from `from` up to (not including) `to`, through `engine`.
    static func play(_ engine: inout GNSSDegradation, from: Double = 0, to: Double, interval: Double = 1) -> [(truth: LocationFix, reported: LocationFix?)] {
        var out: [(LocationFix, LocationFix?)] = []
        var second = from
        while second < to {
            let fix = truth(at: second)
            out.append((fix, engine.report(fix)))
            second += interval
        }
        return out
    }

    static func error(_ reported: LocationFix, _ truth: LocationFix) -> (north: Double, east: Double, up: Double) {
        let m = LocationFudger.metresPerDegreeLatitude
        return (
            (reported.latitude - truth.latitude) * m, (reported.longitude - truth.longitude) * m * cos(truth.latitude * .pi / 180),
            (reported.altitude ?? 0) - (truth.altitude ?? 0)
        )
    }

    static func seconds(_ fix: LocationFix) -> Double { Double(fix.time.nanoseconds - start.nanoseconds) / 1e9 }

    static func engine(_ spec: String, seed: UInt64 = 7) -> GNSSDegradation {
        GNSSDegradation(spec: try! GNSSProfileSpec.parse(spec).get(), seed: seed)
    }
}
