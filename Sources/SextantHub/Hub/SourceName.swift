import SextantCore
import SextantProtocol

/// The sources that feed the hub, by the names `status` shows them under.
public enum SourceName: String, Sendable, CaseIterable, Comparable {
    /// Values set by hand through the control socket (`device.set`).
    case manual
    case replay
    /// A live gpsd, through libgps.
    case gpsd
    /// The machine's Linux IIO sensors, through libudev.
    case iio

    public static func < (a: SourceName, b: SourceName) -> Bool { a.rawValue < b.rawValue }

    /// How its sensor readings rank when several sources speak of one kind: a value held
    /// by hand, then a replay, then live hardware (O4a, ``SensorArbiter``).
    var sensorRank: SensorArbiter.Rank {
        switch self {
        case .manual: return .manual
        case .replay: return .replay
        case .gpsd, .iio: return .live
        }
    }
}

/// What `status` says of a source.
public enum SourceState: Equatable, Sendable, CustomStringConvertible {
    /// Nothing set by hand yet (manual).
    case ready
    /// A value set by hand is in force (manual).
    case active
    /// Never started (replay).
    case idle
    case running
    case paused
    case stopped
    case finished
    /// Being set up (a live source before its first word).
    case starting
    /// Turned off by an option (`--no-iio`).
    case off
    /// A live source's own account of itself: gpsd's link state, the IIO sensors in use.
    case live(String)

    public var description: String {
        switch self {
        case .ready: return "ready"
        case .active: return "active"
        case .idle: return "idle"
        case .running: return "running"
        case .paused: return "paused"
        case .stopped: return "stopped"
        case .finished: return "finished"
        case .starting: return "starting"
        case .off: return "off"
        case .live(let words): return words
        }
    }
}

/// The state of every source the daemon has, for `status`; a source not yet heard of is absent.
public struct SourceStates {
    private var states: [SourceName: SourceState] = [.manual: .ready, .replay: .idle]
    /// Set once a gpsd source exists.
    private(set) var gpsd: GPSDSourceDetails?

    subscript(name: SourceName) -> SourceState? { states[name] }

    mutating func set(_ name: SourceName, _ state: SourceState) { states[name] = state }

    /// A gpsd source exists, reading the gpsd at `server`.
    package mutating func gpsdOpened(server: String) { gpsd = GPSDSourceDetails(server: server) }

    /// The gpsd source's state changed (`lost` starts its loss, any other ends it).
    package mutating func gpsdStateChanged(to state: String, wallNow: Timestamp) {
        set(.gpsd, .live(state))
        gpsd?.stateChanged(to: state, wallNow: wallNow)
    }

    /// A fix came from gpsd at monotonic time `now`.
    package mutating func gpsdFixHeard(at now: Int64) { gpsd?.lastFixAt = now }

    /// The devices gpsd reads.
    package mutating func gpsdDevices(_ paths: [String]) { gpsd?.devices = paths }

    /// Why the gpsd source is lost, the latest attempt's reason.
    package mutating func gpsdLinkDown(_ reason: String) { gpsd?.lostReason = reason }

    /// By name, as `status` lists them.
    var sorted: [(name: SourceName, state: SourceState)] { states.keys.sorted().map { ($0, states[$0]!) } }
}

/// What `status` says of the gpsd source besides its state, for integrators: which gpsd,
/// the devices it reads, how old the last fix is, and since when it is lost.
struct GPSDSourceDetails: Sendable {
    /// `--gpsd`'s host:port.
    var server: String
    var devices: [String] = []
    /// The monotonic time the last fix from gpsd arrived, if any did.
    var lastFixAt: Int64?
    /// The wall time the source was last found lost, while it is.
    var lostSince: Timestamp?
    /// Why it is lost, as the last attempt to reach gpsd ended, while it is.
    var lostReason: String?

    /// The gpsd source's state changed.
    mutating func stateChanged(to state: String, wallNow: Timestamp) {
        if state != "lost" {
            lostSince = nil
            lostReason = nil
        } else if lostSince == nil {
            lostSince = wallNow
        }
    }

    func json(monotonicNow: Int64) -> [String: JSONValue] {
        let age = lastFixAt.map { JSONValue.double((Double(monotonicNow - $0) / 1e6).rounded() / 1e3) } ?? .null
        return [
            "server": .string(server), "devices": .array(devices.map { .string($0) }), "lastFixAge": age,
            "lostSince": lostSince.map { .string($0.rfc3339) } ?? .null,
            "lostReason": lostReason.map { .string($0) } ?? .null,
        ]
    }
}
