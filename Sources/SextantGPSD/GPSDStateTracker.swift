import SextantCore
import SextantProtocol

/// What the gpsd source says about itself in `status` (`sources`, name `gpsd`).
public enum GPSDSourceState: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Started, and no answer from gpsd yet.
    case connecting
    /// gpsd answers; its receiver has no fix (or has sent no report yet).
    case noFix = "no fix"
    /// gpsd delivers fixes.
    case fix
    /// gpsd cannot be reached, its connection dropped, or it stopped answering; the source keeps retrying.
    case lost

    public var description: String { rawValue }

    /// The `gps` sample a change to this state is told to the hub as (none for `connecting`).
    var signal: GPSSignal? {
        switch self {
        case .connecting: return nil
        case .noFix: return .noFix
        case .fix: return .ok
        case .lost: return .lost
        }
    }
}

/// What the gpsd source tells the hub: its state, and samples.
public enum GPSDSourceEvent: Sendable, Equatable {
    case state(GPSDSourceState)
    case sample(Sample)
    /// The devices gpsd says it reads changed (by path; empty when none).
    case devices([String])
    /// Why the link to gpsd is down, after the loss and at each failed attempt since
    /// ("connection refused by 127.0.0.1:2947", "gpsd closed the connection"...).
    case linkDown(reason: String)
}

/// Turns what happens on the link to gpsd into state changes and samples. No I/O.
///
/// Every state change is also told as one `gps` sample (so a recording keeps it and the
/// hub sends one `locationUnavailable` per loss); repeating a state tells nothing, so a
/// source that keeps failing to reconnect reports its loss once.
struct GPSDStateTracker {
    private(set) var state: GPSDSourceState = .connecting
    /// The devices gpsd last said it reads.
    private(set) var devices: [String] = []
    /// The time of the latest fix on this connection, on the receiver's clock.
    private(set) var lastFixTime: Timestamp?

    /// A line arrived: gpsd is there. A fix becomes a location, preceded by `ok` when
    /// fixes (re)start; a TPV without fix moves to `no fix`.
    mutating func received(_ report: GPSDReport, at time: Timestamp) -> [GPSDSourceEvent] {
        switch report {
        case .position(let fix):
            lastFixTime = fix.time
            return change(to: .fix, at: fix.time) + [.sample(Sample(time: fix.time, value: .location(fix)))]
        case .noFix(let tpvTime):
            return change(to: .noFix, at: tpvTime)
        case .sky(let sky, let skyTime):
            // The receiver's own sky (N8): the hub makes none up for a live gpsd. A SKY
            // without a time (gpsd 3.22 sends none) is stamped with the latest fix's, so that
            // the sky stays on the fixes' clock, which a recording keeps as one timeline.
            // Before the first fix that clock is not known (a TPV without fix may have no
            // time either), and such a SKY is not passed on.
            guard let stamp = skyTime ?? lastFixTime else { return answered(at: time) }
            return answered(at: time) + [.sample(Sample(time: stamp, value: .sky(sky)))]
        case .devices(let listed):
            return answered(at: time) + changeDevices(to: Array(listed.prefix(GPSDReport.maximumDevices)))
        case .device(let path, let active):
            var listed = devices.filter { $0 != path }
            if active, listed.count < GPSDReport.maximumDevices { listed.append(path) }
            return answered(at: time) + changeDevices(to: listed)
        case .version, .fixWithoutPosition, .unusableFix, .other:
            // gpsd answers, which says nothing of a fix: a fresh connection starts at no fix.
            return state == .connecting || state == .lost ? change(to: .noFix, at: time) : []
        }
    }

    /// A report that says gpsd is there and nothing of a fix: a fresh connection starts at no fix.
    private mutating func answered(at time: Timestamp) -> [GPSDSourceEvent] {
        state == .connecting || state == .lost ? change(to: .noFix, at: time) : []
    }

    private mutating func changeDevices(to listed: [String]) -> [GPSDSourceEvent] {
        guard listed != devices else { return [] }
        devices = listed
        return [.devices(listed)]
    }

    /// A connection attempt failed, or an open connection ended.
    mutating func unreachable(at time: Timestamp) -> [GPSDSourceEvent] {
        lastFixTime = nil
        return change(to: .lost, at: time)
    }

    private mutating func change(to new: GPSDSourceState, at time: Timestamp) -> [GPSDSourceEvent] {
        guard new != state else { return [] }
        state = new
        var events: [GPSDSourceEvent] = [.state(new)]
        if let signal = new.signal { events.append(.sample(Sample(time: time, value: .gps(signal)))) }
        return events
    }
}

/// Delays between reconnection attempts: 0.5 s, doubling, at most 10 s; back to 0.5 s
/// once gpsd has answered. A gpsd that comes back is found within 10 s, and a gpsd that
/// stays away costs one connection attempt every 10 s.
struct ReconnectBackoff: Equatable {
    static let initialDelay: Duration = .milliseconds(500)
    static let maximumDelay: Duration = .seconds(10)

    private var next = ReconnectBackoff.initialDelay

    /// The delay before the next attempt; the one after is twice as long, up to the cap.
    mutating func nextDelay() -> Duration {
        let delay = next
        next = min(next * 2, Self.maximumDelay)
        return delay
    }

    mutating func reset() { next = Self.initialDelay }
}
