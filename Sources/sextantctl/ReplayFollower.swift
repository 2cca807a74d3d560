#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SextantClient
import SextantProtocol

/// `replay start --wait`: starts a replay and follows it, and only it, to its end.
///
/// The daemon's `replay` events say which trace runs, not which start it came from: a
/// replay that replaces ours announces itself with its first report, at position 0 with no
/// sample sent. That report of ours comes before the answer to our `replay.start`
/// (both go down this connection in order): the first such report is ours, any later one another's.
struct ReplayFollower {
    let connection: SextantConnection
    let path: String
    let detach: Bool
    /// With `--until`: the replay pausing there is its end.
    let pausesAtEnd: Bool
    let bar: ProgressBar

    /// Starts the replay and returns its last status once it has finished.
    func start(_ request: ReplayStart) throws -> JSONValue {
        try SignalPipe.install()
        _ = try connection.call(WatchRequest(topics: [Event.replay]))
        let id = try connection.send(request)
        // No fixed limit while the daemon loads the trace; a signal is looked for between
        // quarter-second slices (the client's poll returns early when one arrives).
        while try !answered(id) {
            if interruptedNow() {
                // The replay starts once loaded: wait for that, to stop it.
                if !detach { _ = try connection.responseWithoutLimit(to: id) }
                throw try interruption()
            }
        }
        var ownStartSeen = false
        while true {
            guard let report = try nextReport() else {
                if interruptedNow() { throw try interruption() }
                continue
            }
            if !ownStartSeen, Self.isStartReport(report.params) {
                ownStartSeen = true
                continue
            }
            if let final = try follow(report.params) { return final }
        }
    }

    private func answered(_ id: JSONValue) throws -> Bool {
        do {
            _ = try connection.response(to: id, timeout: 0.25)
            return true
        } catch ClientError.timedOut {
            return false
        }
    }

    private func nextReport() throws -> ServerEvent? {
        do {
            return try connection.nextEvent(timeout: 0.25, description: "the replay's progress") { $0.method == Event.replay }
        } catch ClientError.timedOut {
            return nil
        }
    }

    /// One report of the replay: its final status when it finished, nil while it runs.
    private func follow(_ status: JSONValue) throws -> JSONValue? {
        if status["path"]?.stringValue != path || Self.isStartReport(status) {
            bar.finish()
            throw StatusFailure(ExitStatus.failed, "another replay replaced it: \(Text.plain(status["path"]))")
        }
        bar.show(position: status["position"]?.doubleValue ?? 0, duration: status["duration"]?.doubleValue ?? 0, events: status["events"]?.intValue ?? 0)
        switch status["state"]?.stringValue {
        case "finished":
            bar.finish()
            return status
        case "paused" where pausesAtEnd:
            bar.finish()
            return status
        case "stopped":
            bar.finish()
            throw StatusFailure(ExitStatus.failed, "the replay was stopped before its end")
        default:
            return nil
        }
    }

    /// A replay's first report: running, at position 0, no sample sent yet.
    static func isStartReport(_ status: JSONValue) -> Bool {
        status["state"] == "running" && status["events"]?.doubleValue == 0 && status["position"]?.doubleValue == 0
    }

    private func interruptedNow() -> Bool {
        SignalPipe.drain().contains { $0.number == SIGINT || $0.number == SIGTERM }
    }

    /// Ctrl-C: the replay we started is stopped, unless --detach.
    private func interruption() throws -> StatusFailure {
        bar.finish()
        if detach { return StatusFailure(ExitStatus.interrupted, "interrupted; the replay goes on (--detach)") }
        _ = try connection.call(ReplayStop())
        return StatusFailure(ExitStatus.interrupted, "interrupted; the replay was stopped")
    }
}
