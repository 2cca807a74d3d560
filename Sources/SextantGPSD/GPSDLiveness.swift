/// Whether an open connection to gpsd is still alive: the banner time-out on connect and
/// the silence time-out after. No I/O, no clock: times are handed in (monotonic ns).
///
/// gpsd sends its `VERSION` banner the moment it accepts a client, so a connection with no
/// banner after ``bannerTimeout`` is a failed attempt (a stopped gpsd, or something else on
/// the port that accepts and says nothing).
///
/// Once connected, silence alone proves nothing: gpsd sends a watcher a report only when a
/// device does (a receiver, with or without a fix, reports about once a second), and
/// nothing at all while it has no device or its device is quiet (measured with gpsd 3.22).
/// So after ``probeAfter`` of silence the source asks `?VERSION;`, which a running gpsd
/// answers at once whatever its devices do; if still nothing has come ``silenceLimit`` after
/// the last byte, gpsd is taken for lost.
struct GPSDLiveness: Equatable {
    static let bannerTimeout: Int64 = 5_000_000_000
    static let probeAfter: Int64 = 5_000_000_000
    static let silenceLimit: Int64 = 10_000_000_000

    /// What the source must do now.
    enum Verdict: Equatable {
        /// Nothing yet; look again at this time.
        case checkAgain(at: Int64)
        /// Send `?VERSION;` to gpsd, then look again at this time.
        case probe(thenCheckAt: Int64)
        /// The connection is dead: drop it and retry, for this reason.
        case giveUp(reason: String)
    }

    private enum Phase: Equatable {
        case awaitingBanner(since: Int64)
        case talking(lastHeard: Int64, probed: Bool)
    }

    private var phase: Phase

    /// A connection was just opened.
    init(connectedAt now: Int64) { phase = .awaitingBanner(since: now) }

    /// True until gpsd's `VERSION` arrived.
    var isAwaitingBanner: Bool {
        if case .awaitingBanner = phase { return true }
        return false
    }

    /// gpsd's banner arrived.
    mutating func bannerReceived(at now: Int64) { phase = .talking(lastHeard: now, probed: false) }

    /// Bytes arrived (a whole line or part of one). Before the banner they prove nothing.
    mutating func heard(at now: Int64) {
        guard case .talking = phase else { return }
        phase = .talking(lastHeard: now, probed: false)
    }

    /// What to do at `now`; the source calls this again at the time it is given.
    mutating func check(at now: Int64) -> Verdict {
        switch phase {
        case .awaitingBanner(let since):
            let deadline = since + Self.bannerTimeout
            if now >= deadline { return .giveUp(reason: "no VERSION banner from gpsd within \(Self.bannerTimeout / 1_000_000_000) s") }
            return .checkAgain(at: deadline)
        case .talking(let lastHeard, let probed):
            let lostAt = lastHeard + Self.silenceLimit
            if now >= lostAt {
                return .giveUp(reason: "gpsd silent for \(Self.silenceLimit / 1_000_000_000) s, not even an answer to ?VERSION")
            }
            let probeAt = lastHeard + Self.probeAfter
            if now >= probeAt {
                guard !probed else { return .checkAgain(at: lostAt) }
                phase = .talking(lastHeard: lastHeard, probed: true)
                return .probe(thenCheckAt: lostAt)
            }
            return .checkAgain(at: probeAt)
        }
    }
}
