import NIOCore

/// Work on the loop at a time, armed without the promise and future that NIO's
/// `scheduleTask` makes for each task: NIO's own loops keep a scheduled callback as a bare
/// entry of their timer queue. The replay arms one for every turn and the held sensors and
/// device timers one for every tick, so at a finite speed each fix paid for a future nobody
/// read (two generic metadata look-ups and an allocation, ~8 % of a fix's instructions).
/// The in-process tests' loops run these on their virtual clock like any task.
struct LoopTimer {
    private let callback: NIOScheduledCallback?

    /// Does nothing when the loop refuses new work: it is shutting down, and a task
    /// scheduled then would never run either.
    fileprivate init(_ schedule: () throws -> NIOScheduledCallback) {
        callback = try? schedule()
    }

    func cancel() { callback?.cancel() }
}

extension EventLoop {
    /// Runs `work` on this loop, which the caller is on, at `deadline`.
    func timer(at deadline: NIODeadline, _ work: @escaping () -> Void) -> LoopTimer {
        LoopTimer { try assumeIsolated().scheduleCallback(at: deadline, handler: LoopWork(run: work)) }
    }

    /// Runs `work` on this loop, which the caller is on, after `delay`.
    func timer(in delay: TimeAmount, _ work: @escaping () -> Void) -> LoopTimer {
        LoopTimer { try assumeIsolated().scheduleCallback(in: delay, handler: LoopWork(run: work)) }
    }
}

private struct LoopWork: NIOScheduledCallbackHandler {
    let run: () -> Void

    func handleScheduledCallback(eventLoop: some EventLoop) { run() }
}
