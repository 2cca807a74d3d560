import SextantCore
import SextantProtocol
import Testing

/// The one validator and the one encoder of a fix, which traces and the wire share.
@Suite("Location fix: validator and encoder")
struct LocationFixTests {
    let time = Timestamp(nanoseconds: 1_772_352_000_000_000_000)

    @Test("Every field is checked, finite and in range, and the reason names its wire field", arguments: [
        (LocationFix(latitude: 91, longitude: 0, time: Timestamp(nanoseconds: 0)), "lat"),
        (LocationFix(latitude: 0, longitude: .infinity, time: Timestamp(nanoseconds: 0)), "lon"),
        (LocationFix(latitude: 0, longitude: 0, altitude: .nan, time: Timestamp(nanoseconds: 0)), "alt"),
        (LocationFix(latitude: 0, longitude: 0, horizontalAccuracy: -1, time: Timestamp(nanoseconds: 0)), "hAcc"),
        (LocationFix(latitude: 0, longitude: 0, verticalAccuracy: -0.5, time: Timestamp(nanoseconds: 0)), "vAcc"),
        (LocationFix(latitude: 0, longitude: 0, verticalAccuracy: 1e200, time: Timestamp(nanoseconds: 0)), "vAcc"),
        (LocationFix(latitude: 0, longitude: 0, speed: -1, time: Timestamp(nanoseconds: 0)), "speed"),
        (LocationFix(latitude: 0, longitude: 0, course: 360, time: Timestamp(nanoseconds: 0)), "course"),
    ])
    func problems(fix: LocationFix, field: String) {
        #expect(fix.problem?.hasPrefix(field + " must be within") == true, "\(String(describing: fix.problem))")
    }

    @Test("A fix at the edges of every range is good")
    func edges() {
        let fix = LocationFix(
            latitude: -90, longitude: 180, altitude: LocationFix.altitudeRange.upperBound, horizontalAccuracy: 0,
            verticalAccuracy: LocationFix.maximumAccuracy, speed: LocationFix.maximumSpeed, course: 359.999, time: time)
        #expect(fix.problem == nil)
    }

    @Test("The encoder writes the known members, with time only when asked")
    func members() {
        let fix = LocationFix(latitude: 1.5, longitude: -2, altitude: 3, horizontalAccuracy: 4, verticalAccuracy: 5, speed: 6, course: 7, time: time)
        let expected: [String: JSONValue] = [
            "lat": .double(1.5), "lon": .double(-2), "alt": .double(3), "hAcc": .double(4), "vAcc": .double(5), "speed": .double(6),
            "course": .double(7),
        ]
        #expect(fix.jsonMembers(includingTime: false) == expected)
        var timed = expected
        timed["time"] = .string("2026-03-01T08:00:00.000Z")
        #expect(fix.jsonMembers(includingTime: true) == timed)
        let bare = LocationFix(latitude: 0, longitude: 0, time: time).jsonMembers(includingTime: false)
        #expect(bare == ["lat": .double(0), "lon": .double(0), "hAcc": .double(5)])
    }

    @Test("Accelerations: finite, each component within ±1000 m/s²")
    func accelerations() {
        #expect(Acceleration.problem(x: 0, y: 9.81, z: 0) == nil)
        #expect(Acceleration.problem(x: 1e308, y: 0, z: 0)?.hasPrefix("x must be") == true)
        #expect(Acceleration.problem(x: 0, y: 0, z: .nan)?.hasPrefix("z must be") == true)
        #expect(Acceleration.problem(x: 600, y: -1000.5, z: 600)?.hasPrefix("y must be") == true)
    }
}
