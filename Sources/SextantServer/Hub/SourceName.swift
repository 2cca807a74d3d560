/// The sources that feed the hub, by the names `status` shows them under.
enum SourceName: String, Sendable, CaseIterable, Comparable {
    /// Values set by hand through the control socket (`device.set`).
    case manual
    case replay
    /// A live gpsd, through libgps.
    case gpsd
    /// The machine's Linux IIO sensors, through libudev.
    case iio

    static func < (a: SourceName, b: SourceName) -> Bool { a.rawValue < b.rawValue }
}

/// What `status` says of a source.
enum SourceState: Equatable, Sendable, CustomStringConvertible {
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

    var description: String {
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
struct SourceStates {
    private var states: [SourceName: SourceState] = [.manual: .ready, .replay: .idle]

    subscript(name: SourceName) -> SourceState? { states[name] }

    mutating func set(_ name: SourceName, _ state: SourceState) { states[name] = state }

    /// By name, as `status` lists them.
    var sorted: [(name: SourceName, state: SourceState)] { states.keys.sorted().map { ($0, states[$0]!) } }
}
