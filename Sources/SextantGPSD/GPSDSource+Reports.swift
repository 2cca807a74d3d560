import Logging
import SextantCore

/// What the source makes of each line gpsd sends, and how it tells its changes (on the
/// source's event loop).
extension GPSDSource {
    func handle(_ line: String) {
        let now = clock.wallTime()
        let report: GPSDReport
        var dropped: [String] = []
        do {
            report = try GPSDReport.decode(line: line, receivedAt: now, dropped: &dropped)
        } catch {
            logger.debug("gpsd: skipped a line", metadata: ["gpsd": "\(endpoint)", "reason": "\(error)", "line": "\(line.prefix(120))"])
            return
        }
        if link.liveness?.isAwaitingBanner == true {
            guard case .version = report else {
                logger.debug("gpsd: skipped a line before the VERSION banner", metadata: ["gpsd": "\(endpoint)", "line": "\(line.prefix(120))"])
                return
            }
            link.liveness?.bannerReceived(at: clock.monotonicNanoseconds())
        }
        if case .unusableFix(let reason) = report {
            logger.debug("gpsd: skipped a fix", metadata: ["gpsd": "\(endpoint)", "reason": "\(reason)", "line": "\(line.prefix(200))"])
        } else if !dropped.isEmpty {
            logger.debug("gpsd: dropped fields of a fix", metadata: ["gpsd": "\(endpoint)", "fields": "\(dropped.joined(separator: "; "))"])
        }
        var detail: Logger.Metadata = [:]
        if link.tracker.state == .connecting || link.tracker.state == .lost {
            // gpsd answered: the next loss starts the back-off afresh.
            link.backoff.reset()
            link.failedAttempts = 0
            if case .version(let release) = report { detail["release"] = "\(release)" }
        }
        emit(link.tracker.received(report, at: now), detail: detail)
    }

    /// Hands events on, logging each change of state once.
    func emit(_ events: [GPSDSourceEvent], detail: Logger.Metadata = [:]) {
        for event in events {
            switch event {
            case .state(let new):
                logChange(from: link.loggedState, to: new, detail: detail)
                link.loggedState = new
            case .devices(let paths):
                logger.info("gpsd: devices", metadata: ["gpsd": "\(endpoint)", "devices": "\(paths.joined(separator: ", "))"])
            case .sample, .linkDown: break
            }
        }
        guard !events.isEmpty else { return }
        deliverUnlessStopped(events)
    }

    private func logChange(from old: GPSDSourceState?, to new: GPSDSourceState, detail: Logger.Metadata) {
        let metadata = detail.merging(["gpsd": "\(endpoint)", "state": "\(new)"]) { $1 }
        switch (old, new) {
        case (_, .connecting):
            logger.info("gpsd: connecting", metadata: metadata)
        case (.connecting?, .lost), (nil, .lost):
            logger.warning("gpsd: cannot connect; retrying with back-off (at most every 10 s)", metadata: metadata)
        case (_, .lost):
            logger.warning("gpsd: connection lost; reconnecting with back-off (at most every 10 s)", metadata: metadata)
        case (.connecting?, _), (.lost?, _), (nil, _):
            logger.notice("gpsd: connected", metadata: metadata)
        case (.fix?, .noFix):
            logger.info("gpsd: the receiver lost its fix", metadata: metadata)
        case (_, .fix):
            logger.info("gpsd: the receiver has a fix", metadata: metadata)
        case (_, .noFix):
            logger.info("gpsd: no fix", metadata: metadata)
        }
    }
}
