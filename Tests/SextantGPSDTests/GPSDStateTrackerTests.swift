import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSD

@Suite("gpsd source state (one loss told once)")
struct GPSDStateTrackerTests {
    let t0 = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 0)
    var t1: Timestamp { t0.adding(nanoseconds: 1_000_000_000) }

    func fix(at time: Timestamp) -> LocationFix { LocationFix(latitude: 48, longitude: 2, time: time) }

    @Test("gpsd absent at start: lost, told once however many attempts fail")
    func absentAtStart() {
        var tracker = GPSDStateTracker()
        #expect(tracker.state == .connecting)
        #expect(tracker.unreachable(at: t0) == [.state(.lost), .sample(Sample(time: t0, value: .gps(.lost)))])
        #expect(tracker.unreachable(at: t1) == [])
        #expect(tracker.unreachable(at: t1) == [])
        #expect(tracker.state == .lost)
    }

    @Test("gpsd answers: no fix; the first fix says ok then the location; later fixes only the location")
    func connectThenFix() {
        var tracker = GPSDStateTracker()
        #expect(tracker.received(.version(release: "3.22"), at: t0) == [.state(.noFix), .sample(Sample(time: t0, value: .gps(.noFix)))])
        #expect(tracker.received(.other(class: "DEVICES"), at: t0) == [])
        #expect(tracker.received(.noFix(time: t0), at: t0) == [])
        let first = fix(at: t1)
        #expect(tracker.received(.position(first), at: t0) == [
            .state(.fix), .sample(Sample(time: t1, value: .gps(.ok))), .sample(Sample(time: t1, value: .location(first))),
        ])
        let second = fix(at: t1.adding(nanoseconds: 1_000_000_000))
        #expect(tracker.received(.position(second), at: t0) == [.sample(Sample(time: second.time, value: .location(second)))])
        #expect(tracker.received(.fixWithoutPosition(mode: 3), at: t0) == [])
        #expect(tracker.state == .fix)
    }

    @Test("The receiver loses its fix: no fix at the TPV's time, no location")
    func fixLost() {
        var tracker = GPSDStateTracker()
        _ = tracker.received(.position(fix(at: t0)), at: t0)
        #expect(tracker.received(.noFix(time: t1), at: t0) == [.state(.noFix), .sample(Sample(time: t1, value: .gps(.noFix)))])
    }

    @Test("Each loss is told once: killed, retried, back, killed again")
    func lossAfterLoss() {
        var tracker = GPSDStateTracker()
        _ = tracker.received(.position(fix(at: t0)), at: t0)
        #expect(tracker.unreachable(at: t1) == [.state(.lost), .sample(Sample(time: t1, value: .gps(.lost)))])
        #expect(tracker.unreachable(at: t1) == [])
        #expect(tracker.received(.version(release: "3.22"), at: t1).first == .state(.noFix))
        #expect(tracker.unreachable(at: t1) == [.state(.lost), .sample(Sample(time: t1, value: .gps(.lost)))])
    }

    @Test("Devices: DEVICES sets the list, DEVICE adds or removes one; only a change is told; a report on a fresh connection is gpsd answering")
    func devices() {
        var tracker = GPSDStateTracker()
        #expect(tracker.received(.devices(["/dev/ttyUSB0"]), at: t0) == [
            .state(.noFix), .sample(Sample(time: t0, value: .gps(.noFix))), .devices(["/dev/ttyUSB0"]),
        ])
        #expect(tracker.received(.devices(["/dev/ttyUSB0"]), at: t0) == [])
        #expect(tracker.received(.device(path: "/dev/ttyACM0", active: true), at: t0) == [.devices(["/dev/ttyUSB0", "/dev/ttyACM0"])])
        #expect(tracker.received(.device(path: "/dev/ttyACM0", active: true), at: t0) == [])
        #expect(tracker.received(.device(path: "/dev/ttyUSB0", active: false), at: t0) == [.devices(["/dev/ttyACM0"])])
        #expect(tracker.devices == ["/dev/ttyACM0"])
    }
}

@Suite("Reconnection back-off")
struct ReconnectBackoffTests {
    @Test("0.5 s doubling, capped at 10 s; back to 0.5 s after a reset")
    func sequence() {
        var backoff = ReconnectBackoff()
        let delays = (0..<8).map { _ in backoff.nextDelay() }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10)])
        backoff.reset()
        #expect(backoff.nextDelay() == .milliseconds(500))
    }
}
