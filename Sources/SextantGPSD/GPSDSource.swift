import Dispatch
import Foundation
import Synchronization
import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantProtocol

/// Live positions from a running gpsd, read on an event loop the caller gives (the
/// daemon's: the hub's own, so that a fix crosses no thread between gpsd's socket and
/// the hub).
///
/// libgps connects and asks gpsd to stream JSON (``LibGPSConnection``, off the loop: it
/// blocks for name resolution and the connect); the connected socket is then served by
/// NIO on the loop, split into lines by ``GPSDLineHandler``. Each line is decoded by
/// ``GPSDReport`` and turned into events by ``GPSDStateTracker``: a TPV with a fix becomes
/// a location sample, a TPV without fix moves the state to `no fix`.
///
/// When gpsd is not there, dies, closes the connection, or stops talking (see
/// ``GPSDLiveness``: no banner within 5 s of connecting, or nothing for 10 s, not even an
/// answer to `?VERSION;`), the source reports the loss once (`lost` and a `gps` lost
/// sample) and tries again after 0.5 s, 1 s, 2 s, ... up to 10 s between attempts, until
/// gpsd answers; then fixes resume. The log says each change of state once, not each attempt.
///
/// Everything mutable lives on the event loop, timers included (``GPSDLink``, in a
/// `NIOLoopBoundBox`). Events go to `deliver` in order, on the loop; none is delivered
/// once `stop()` has returned.
public final class GPSDSource: Sendable {
    /// Monotonic nanoseconds between two warnings of skipped over-long lines.
    static let overlongWarningInterval: Int64 = 10_000_000_000
    public let endpoint: GPSDEndpoint
    let logger: Logger
    let clock: SextantClock
    let eventLoop: any EventLoop
    /// Where libgps connects: its calls block, the loop must not.
    private let connectQueue: DispatchQueue

    /// Where events go until `stop()`: the only state shared with other threads. Held
    /// while events are handed over, so that none is after `stop()` returns.
    private let deliver: Mutex<(@Sendable (GPSDSourceEvent) -> Void)?>
    private let confined: NIOLoopBoundBox<GPSDLink>

    /// The link's state; on `eventLoop` only (checked at every access).
    var link: GPSDLink {
        get { confined.value }
        _modify { yield &confined.value }
    }

    /// - Parameters:
    ///   - eventLoop: where the socket is read, the timers run and `deliver` is called; a
    ///     NIOPosix loop (the source serves its socket with NIO).
    ///   - clock: the wall clock stamps reports that carry no time of their own; the
    ///     monotonic clock measures gpsd's silences.
    ///   - deliver: called on `eventLoop` with every state change and sample.
    public init(
        endpoint: GPSDEndpoint, eventLoop: any EventLoop, logger: Logger, clock: SextantClock = .system,
        deliver: @escaping @Sendable (GPSDSourceEvent) -> Void
    ) {
        self.endpoint = endpoint
        self.eventLoop = eventLoop
        self.logger = logger
        self.clock = clock
        self.deliver = Mutex(deliver)
        self.confined = .makeBoxSendingValue(GPSDLink(), eventLoop: eventLoop)
        self.connectQueue = DispatchQueue(label: "sextant.gpsd.connect.\(endpoint)")
    }

    /// Starts connecting (at once) and keeps the link up until `stop()`.
    public func start() {
        eventLoop.execute { [self] in
            guard !link.running, isDelivering else { return }
            link.running = true
            emit([.state(.connecting)])
            connect()
        }
    }

    /// Stops for good: no event is delivered after this returns; the socket is closed and
    /// any pending retry cancelled on the loop, without waiting for it.
    public func stop() {
        deliver.withLock { $0 = nil }
        eventLoop.execute { [self] in
            link.running = false
            link.retry?.cancel()
            link.retry = nil
            dropConnection()
        }
    }

    // MARK: - Link (on `eventLoop`)

    private var isDelivering: Bool { deliver.withLock { $0 != nil } }

    private func connect() {
        guard link.running else { return }
        link.attempt += 1
        let number = link.attempt
        link.currentConnection = number
        connectQueue.async { [self] in
            let opened = Result { () throws(GPSDConnectError) in try LibGPSConnection.openWatching(endpoint) }
            guard isDelivering else {
                // Stopped meanwhile: the loop may be shutting down too; nothing to hand it.
                if case .success(let descriptor) = opened { Glibc.close(descriptor) }
                return
            }
            eventLoop.execute { [self] in connected(opened, number: number) }
        }
    }

    /// libgps's attempt `number` ended: serve its socket on the loop, or report the failure.
    private func connected(_ opened: Result<Int32, GPSDConnectError>, number: Int) {
        guard link.running, link.currentConnection == number else {
            // Stopped (or superseded) while libgps was connecting.
            if case .success(let descriptor) = opened { Glibc.close(descriptor) }
            return
        }
        let descriptor: Int32
        switch opened {
        case .failure(let error):
            link.currentConnection = nil
            link.failedAttempts += 1
            logger.trace("gpsd: connection attempt failed", metadata: ["gpsd": "\(endpoint)", "attempt": "\(link.failedAttempts)", "reason": "\(error)"])
            becameUnreachable(reason: error.description)
            return
        case .success(let connected):
            descriptor = connected
        }
        // gpsd counts as back only once it has sent its VERSION banner: a listener that
        // accepts and hangs up, or accepts and says nothing, is still a failed attempt.
        link.liveness = GPSDLiveness(connectedAt: clock.monotonicNanoseconds())
        checkLiveness()
        // NIO owns the descriptor from here on and closes it with the channel.
        ClientBootstrap(group: eventLoop)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(GPSDLineHandler(source: self, connection: number))
                }
            }
            .withConnectedSocket(descriptor)
            .whenComplete { [self] result in served(result, number: number) }
    }

    private func served(_ result: Result<any Channel, any Error>, number: Int) {
        switch result {
        case .success(let opened) where link.currentConnection == number:
            link.channel = opened
        case .success(let stale):
            stale.close(promise: nil)
        case .failure(let error):
            ended(number, reason: "cannot read gpsd's socket: \(error)")
        }
    }

    /// Bytes came on connection `number` (a whole line or part of one).
    func heard(on number: Int) {
        guard link.currentConnection == number else { return }
        link.liveness?.heard(at: clock.monotonicNanoseconds())
    }

    /// Connection `number` made a line, or was sent one over the limit.
    func received(_ piece: GPSDLineBuffer.Piece, on number: Int) {
        guard link.running, link.currentConnection == number else { return }
        switch piece {
        case .line(let line):
            handle(line)
        case .overlong(let prefix):
            // A peer may send nothing but such lines: the first is told, then one warning
            // every 10 s at most, with how many were skipped meanwhile.
            guard let heldBack = link.overlongWarnings.note("overlong", at: clock.monotonicNanoseconds()) else { return }
            let since = heldBack > 0 ? " (and \(heldBack) more since the last warning)" : ""
            logger.warning(
                "gpsd: skipped a line longer than \(GPSDLineBuffer.maximumLineLength) bytes\(since)",
                metadata: ["gpsd": "\(endpoint)", "start": "\(prefix)"])
        }
    }

    /// Connection `number` ended: gpsd closed it, or it failed.
    func ended(_ number: Int, reason: String) {
        guard link.running, link.currentConnection == number else { return }
        dropConnection()
        becameUnreachable(reason: reason)
    }

    /// Follows ``GPSDLiveness``'s verdicts on the open connection until it gives up.
    private func checkLiveness() {
        guard link.running, link.currentConnection != nil, var state = link.liveness else { return }
        let verdict = state.check(at: clock.monotonicNanoseconds())
        link.liveness = state
        switch verdict {
        case .checkAgain(let time):
            scheduleLivenessCheck(at: time)
        case .probe(let time):
            logger.debug("gpsd: quiet for \(GPSDLiveness.probeAfter / 1_000_000_000) s; asking ?VERSION;", metadata: ["gpsd": "\(endpoint)"])
            // Not waited for: a gpsd that does not read is found by the silence time-out.
            if let channel = link.channel { channel.writeAndFlush(channel.allocator.buffer(string: "?VERSION;\n"), promise: nil) }
            scheduleLivenessCheck(at: time)
        case .giveUp(let reason):
            dropConnection()
            becameUnreachable(reason: reason)
        }
    }

    private func scheduleLivenessCheck(at time: Int64) {
        link.livenessCheck?.cancel()
        // At most GPSDLiveness's longest time-out ahead: no overflow.
        let delay = max(0, time - clock.monotonicNanoseconds())
        link.livenessCheck = eventLoop.scheduleTask(in: .nanoseconds(delay)) { [self] in
            link.livenessCheck = nil
            checkLiveness()
        }
    }

    private func becameUnreachable(reason: String) {
        emit(link.tracker.unreachable(at: clock.wallTime()) + [.linkDown(reason: reason)], detail: ["reason": "\(reason)"])
        scheduleReconnect()
    }

    private func scheduleReconnect() {
        guard link.running else { return }
        let (seconds, attoseconds) = link.backoff.nextDelay().components
        // ReconnectBackoff's delays are at most 10 s: no overflow.
        let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        link.retry?.cancel()
        link.retry = eventLoop.scheduleTask(in: delay) { [self] in
            link.retry = nil
            connect()
        }
    }

    private func dropConnection() {
        // Forgotten before it is closed: on the loop, close() runs the handler's
        // channelInactive at once, which must find the connection no longer current.
        let closing = link.channel
        link.channel = nil
        link.currentConnection = nil
        link.liveness = nil
        link.livenessCheck?.cancel()
        link.livenessCheck = nil
        closing?.close(promise: nil)
    }

    /// Hands events to `deliver`, unless `stop()` came first.
    func deliverUnlessStopped(_ events: [GPSDSourceEvent]) {
        deliver.withLock { deliver in
            guard let deliver else { return }
            for event in events { deliver(event) }
        }
    }
}

/// The link to gpsd as the event loop keeps it.
struct GPSDLink {
    var tracker = GPSDStateTracker()
    var backoff = ReconnectBackoff()
    /// Numbers the connection attempts; the current one's number, while it is open or opening.
    var attempt = 0
    var currentConnection: Int?
    var channel: (any Channel)?
    var retry: Scheduled<Void>?
    var liveness: GPSDLiveness?
    var livenessCheck: Scheduled<Void>?
    var running = false
    /// Counts failed attempts in a row, for the trace log only.
    var failedAttempts = 0
    /// The state last handed out: the "from" side of the next change the log tells.
    var loggedState: GPSDSourceState?
    /// Over-long lines skipped, told at most once every ``GPSDSource/overlongWarningInterval``.
    var overlongWarnings = RateLimitedWarnings(interval: GPSDSource.overlongWarningInterval)
}
