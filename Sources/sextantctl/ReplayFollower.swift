#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SextantClient
import SextantProtocol
import Synchronization

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

    /// Starts the replay and returns its last status once it has finished; Ctrl-C (or
    /// SIGTERM) ends the wait at once, whatever the daemon is doing.
    func start(_ request: ReplayStart) async throws -> JSONValue {
        try SignalPipe.install()
        _ = try await connection.request(WatchRequest(topics: [Event.replay]))
        let id = try connection.send(request)
        let loaded = Loaded()
        let outcome = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
            group.addTask { try await follow(answering: id, loaded: loaded) }
            group.addTask { await SignalPipe.stopRequested() ? nil : .null }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let outcome else { throw try await interruption(answering: id, loaded: loaded.value.load(ordering: .acquiring)) }
        return outcome
    }

    /// Whether the daemon has answered `replay.start` (the trace is loaded).
    final class Loaded: Sendable {
        let value = Atomic(false)
    }

    /// Waits for the answer (no fixed limit: loading a large trace takes the time it takes,
    /// and a daemon that dies closes the socket, which ends the wait), then for the reports.
    private func follow(answering id: JSONValue, loaded: Loaded) async throws -> JSONValue {
        _ = try await connection.answer(to: id)
        loaded.value.store(true, ordering: .releasing)
        var ownStartSeen = false
        while true {
            let report = try await connection.notification()
            guard report.method == Event.replay else { continue }
            if !ownStartSeen, Self.isStartReport(report.params) {
                ownStartSeen = true
                continue
            }
            if let final = try follow(report.params) { return final }
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

    /// Ctrl-C: the replay we started is stopped, unless --detach.
    private func interruption(answering id: JSONValue, loaded: Bool) async throws -> StatusFailure {
        bar.finish()
        if detach { return StatusFailure(ExitStatus.interrupted, "interrupted; the replay goes on (--detach)") }
        // The replay starts once loaded: wait for that, to stop it.
        if !loaded { _ = try await connection.answer(to: id) }
        _ = try await connection.request(ReplayStop())
        return StatusFailure(ExitStatus.interrupted, "interrupted; the replay was stopped")
    }
}
