import Dispatch
import Foundation
import Logging
import SextantCore
import SextantProtocol

/// Live positions from a running gpsd, through libgps.
///
/// The source connects, asks gpsd to stream JSON, and reads only when the socket is
/// readable (a `DispatchSourceRead` on libgps's descriptor, which is non-blocking), so
/// nothing ever waits on a quiet gpsd and `stop()` never hangs. Each line is decoded by
/// ``GPSDReport`` and turned into events by ``GPSDStateTracker``: a TPV with a fix becomes
/// a location sample, a TPV without fix moves the state to `no fix`.
///
/// When gpsd is not there, dies, closes the connection, or stops talking (see
/// ``GPSDLiveness``: no banner within 5 s of connecting, or nothing for 10 s, not even an
/// answer to `?VERSION;`), the source reports the loss once (`lost` and a `gps` lost
/// sample) and tries again after 0.5 s, 1 s, 2 s, ... up to 10 s between attempts, until
/// gpsd answers; then fixes resume. The log says each change of state once, not each attempt.
///
/// Everything mutable lives on one private serial queue. Events go to `deliver` in order,
/// from that queue; none is delivered once `stop()` has returned.
public final class GPSDSource: @unchecked Sendable {
    public let endpoint: GPSDEndpoint
    private let logger: Logger
    private let clock: SextantClock
    private let queue: DispatchQueue

    /// Guards `deliver` against `stop()`: the only state shared with other threads.
    private let deliveryLock = NSLock()
    private var deliver: (@Sendable (GPSDSourceEvent) -> Void)?

    // On `queue` only.
    private var tracker = GPSDStateTracker()
    private var backoff = ReconnectBackoff()
    private var connection: LibGPSConnection?
    private var readSource: DispatchSourceRead?
    private var retry: DispatchWorkItem?
    private var liveness: GPSDLiveness?
    private var livenessCheck: DispatchWorkItem?
    private var running = false
    /// Counts failed attempts in a row, for the trace log only.
    private var failedAttempts = 0
    /// The state last handed out: the "from" side of the next change the log tells.
    private var loggedState: GPSDSourceState?

    /// - Parameters:
    ///   - clock: the wall clock stamps reports that carry no time of their own; the
    ///     monotonic clock measures gpsd's silences.
    ///   - deliver: called on the source's queue with every state change and sample.
    public init(
        endpoint: GPSDEndpoint, logger: Logger, clock: SextantClock = .system,
        deliver: @escaping @Sendable (GPSDSourceEvent) -> Void
    ) {
        self.endpoint = endpoint
        self.logger = logger
        self.clock = clock
        self.deliver = deliver
        self.queue = DispatchQueue(label: "sextant.gpsd.\(endpoint)")
    }

    /// Starts connecting (at once) and keeps the link up until `stop()`.
    public func start() {
        queue.async { [self] in
            guard !running, isDelivering else { return }
            running = true
            emit([.state(.connecting)])
            connect()
        }
    }

    /// Stops for good: no event is delivered after this returns; the socket is closed and
    /// any pending retry cancelled on the source's queue, without waiting for it.
    public func stop() {
        deliveryLock.withLock { deliver = nil }
        queue.async { [self] in
            running = false
            retry?.cancel()
            retry = nil
            dropConnection()
        }
    }

    // MARK: - Link (on `queue`)

    private var isDelivering: Bool { deliveryLock.withLock { deliver != nil } }

    private func connect() {
        guard running else { return }
        let opened: LibGPSConnection
        do {
            opened = try LibGPSConnection(endpoint: endpoint)
        } catch {
            failedAttempts += 1
            logger.trace("gpsd: connection attempt failed", metadata: ["gpsd": "\(endpoint)", "attempt": "\(failedAttempts)", "reason": "\(error)"])
            becameUnreachable(reason: error.description)
            return
        }
        // gpsd counts as back only once it has sent its VERSION banner: a listener that
        // accepts and hangs up, or accepts and says nothing, is still a failed attempt.
        connection = opened
        liveness = GPSDLiveness(connectedAt: clock.monotonicNanoseconds())
        checkLiveness()
        let source = DispatchSource.makeReadSource(fileDescriptor: opened.fileDescriptor, queue: queue)
        source.setEventHandler { [self] in readAvailableLines(from: opened) }
        // The descriptor is closed only after dispatch has stopped watching it.
        source.setCancelHandler { opened.close() }
        readSource = source
        source.resume()
    }

    private func readAvailableLines(from current: LibGPSConnection) {
        // Readable: bytes came (or the peer hung up, which the read below finds).
        liveness?.heard(at: clock.monotonicNanoseconds())
        while running, connection === current {
            switch current.readLine() {
            case .line(let line):
                handle(line)
            case .wouldBlock:
                return
            case .closed(let reason):
                dropConnection()
                becameUnreachable(reason: reason)
                return
            }
        }
    }

    private func handle(_ line: String) {
        let now = clock.wallTime()
        let report: GPSDReport
        var dropped: [String] = []
        do {
            report = try GPSDReport.decode(line: line, receivedAt: now, dropped: &dropped)
        } catch {
            logger.debug("gpsd: skipped a line", metadata: ["reason": "\(error)", "line": "\(line.prefix(120))"])
            return
        }
        if liveness?.isAwaitingBanner == true {
            guard case .version = report else {
                logger.debug("gpsd: skipped a line before the VERSION banner", metadata: ["line": "\(line.prefix(120))"])
                return
            }
            liveness?.bannerReceived(at: clock.monotonicNanoseconds())
        }
        if case .unusableFix(let reason) = report {
            logger.debug("gpsd: skipped a fix", metadata: ["reason": "\(reason)", "line": "\(line.prefix(200))"])
        } else if !dropped.isEmpty {
            logger.debug("gpsd: dropped fields of a fix", metadata: ["fields": "\(dropped.joined(separator: "; "))"])
        }
        var detail: Logger.Metadata = [:]
        if tracker.state == .connecting || tracker.state == .lost {
            // gpsd answered: the next loss starts the back-off afresh.
            backoff.reset()
            failedAttempts = 0
            if case .version(let release) = report { detail["release"] = "\(release)" }
        }
        emit(tracker.received(report, at: now), detail: detail)
    }

    /// Follows ``GPSDLiveness``'s verdicts on the open connection until it gives up.
    private func checkLiveness() {
        guard running, let current = connection, var state = liveness else { return }
        let verdict = state.check(at: clock.monotonicNanoseconds())
        liveness = state
        switch verdict {
        case .checkAgain(let time):
            scheduleLivenessCheck(at: time)
        case .probe(let time):
            logger.debug("gpsd: quiet for \(GPSDLiveness.probeAfter / 1_000_000_000) s; asking ?VERSION;", metadata: ["gpsd": "\(endpoint)"])
            current.send("?VERSION;\n")
            scheduleLivenessCheck(at: time)
        case .giveUp(let reason):
            dropConnection()
            becameUnreachable(reason: reason)
        }
    }

    private func scheduleLivenessCheck(at time: Int64) {
        livenessCheck?.cancel()
        let work = DispatchWorkItem { [self] in
            livenessCheck = nil
            checkLiveness()
        }
        livenessCheck = work
        // At most GPSDLiveness's longest time-out ahead: no overflow in the conversion.
        let delay = max(0, time - clock.monotonicNanoseconds())
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay)), execute: work)
    }

    private func becameUnreachable(reason: String) {
        emit(tracker.unreachable(at: clock.wallTime()), detail: ["reason": "\(reason)"])
        scheduleReconnect()
    }

    private func scheduleReconnect() {
        guard running else { return }
        let delay = backoff.nextDelay()
        let work = DispatchWorkItem { [self] in
            retry = nil
            connect()
        }
        retry = work
        let (seconds, attoseconds) = delay.components
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)), execute: work)
    }

    private func dropConnection() {
        readSource?.cancel()  // its cancel handler closes the socket
        readSource = nil
        connection = nil
        liveness = nil
        livenessCheck?.cancel()
        livenessCheck = nil
    }

    /// Hands events to the hub, logging each change of state once.
    private func emit(_ events: [GPSDSourceEvent], detail: Logger.Metadata = [:]) {
        for event in events {
            switch event {
            case .state(let new):
                logChange(from: loggedState, to: new, detail: detail)
                loggedState = new
            case .devices(let paths):
                logger.info("gpsd: devices", metadata: ["gpsd": "\(endpoint)", "devices": "\(paths.joined(separator: ", "))"])
            case .sample: break
            }
        }
        guard !events.isEmpty else { return }
        deliveryLock.withLock {
            guard let deliver else { return }
            for event in events { deliver(event) }
        }
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
