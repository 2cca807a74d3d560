import Foundation
import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantProtocol
import SextantTestSupport
import Synchronization
import Testing

@testable import SextantGPSD

/// The gpsd source on an event loop of its own, without the hub: it reads its socket on
/// the loop it is given and delivers there, and a peer on the loopback stands where gpsd
/// would (the integration tests run it against a real gpsd, through the daemon).
@Suite("gpsd source on an event loop (no hub)", .serialized)
struct GPSDSourceTests {
    static let banner = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let fix = #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"time":"2026-03-01T08:00:00.000Z","lat":48.5,"lon":2.25,"eph":7}"#

    @Test("Delivered on the loop given, in order: connecting, no fix at the banner, then the fix; a bad line and one over 16 KiB are skipped, the connection kept")
    func readsOnTheLoop() throws {
        let peer = try LoopbackPeer()
        let run = try SourceRun(port: peer.port)
        defer { run.close() }
        let connection = try peer.accept()
        let watch = try peer.read(connection, until: "?WATCH")
        #expect(watch.contains(#""enable":true"#) && watch.contains(#""json":true"#), "libgps's ?WATCH: \(watch)")
        try peer.say([Self.banner], to: connection)
        try run.waitFor { $0.contains(.state(.noFix)) }
        try peer.say(["not json", #"{"class":"TPV","lat":"#, String(repeating: "x", count: 20_000), Self.fix], to: connection)
        let events = try run.waitFor { $0.contains { if case .sample(let s) = $0, case .location = s.value { true } else { false } } }
        #expect(events.prefix(3) == [.state(.connecting), .state(.noFix), .sample(Sample(time: events[2].sampleTime!, value: .gps(.noFix)))])
        guard case .sample(let sample) = events.last, case .location(let fix) = sample.value else {
            Issue.record("no location last: \(events)")
            return
        }
        #expect(fix.latitude == 48.5 && fix.longitude == 2.25 && fix.horizontalAccuracy == 7)
        #expect(run.deliveredOffTheLoop == 0, "every event is delivered on the source's event loop")
        #expect(run.log.contains("skipped a line longer than 16384 bytes"), "\(run.log)")
        #expect(run.log.contains("gpsd: skipped a line"), "\(run.log)")
        #expect(peer.connectionCount == 1, "bad lines do not cost the connection")
    }

    @Test("A peer flooding over-long lines: the first is logged, the rest held back (one warning per 10 s at most); the fix after them still comes (issue 36.13)")
    func overlongFloodIsRateLimited() throws {
        let peer = try LoopbackPeer()
        let run = try SourceRun(port: peer.port)
        defer { run.close() }
        let connection = try peer.accept()
        _ = try peer.read(connection, until: "?WATCH")
        try peer.say([Self.banner], to: connection)
        try run.waitFor { $0.contains(.state(.noFix)) }
        let over = String(repeating: "y", count: GPSDLineBuffer.maximumLineLength + 10)
        let start = monotonicSeconds()
        try peer.say(Array(repeating: over, count: 200) + [Self.fix], to: connection)
        try run.waitFor { $0.contains { if case .sample(let s) = $0, case .location = s.value { true } else { false } } }
        let warnings = run.log.components(separatedBy: "gpsd: skipped a line").count - 1
        // One, and one more for each 10 s the flood took (none on an unloaded machine).
        let allowed = 1 + Int((monotonicSeconds() - start) / 10)
        #expect(warnings >= 1 && warnings <= allowed, "200 over-long lines gave \(warnings) warnings, \(allowed) allowed")
    }

    @Test("The peer hangs up: lost once, then a new attempt after the first back-off step (0.5 s)")
    func reconnectsAfterHangUp() throws {
        let peer = try LoopbackPeer()
        let run = try SourceRun(port: peer.port)
        defer { run.close() }
        let first = try peer.accept()
        // Read, so that the hang-up is a plain close (unread data would make it a reset).
        _ = try peer.read(first, until: "?WATCH")
        try peer.say([Self.banner], to: first)
        try run.waitFor { $0.contains(.state(.noFix)) }
        peer.hangUp(first)
        let lostAt = monotonicSeconds()
        try run.waitFor { $0.contains(.state(.lost)) }
        _ = try peer.accept()
        let wait = monotonicSeconds() - lostAt
        #expect(wait >= 0.4, "retried after \(wait) s, not before the back-off")
        #expect(run.events.filter { $0 == .state(.lost) }.count == 1)
        #expect(run.log.contains("gpsd closed the connection"), "\(run.log)")
    }

    @Test("stop(): nothing is delivered after it returns, and the peer sees the connection closed")
    func stopIsFinal() throws {
        let peer = try LoopbackPeer()
        let run = try SourceRun(port: peer.port)
        defer { run.close() }
        let connection = try peer.accept()
        try peer.say([Self.banner], to: connection)
        try run.waitFor { $0.contains(.state(.noFix)) }
        run.source.stop()
        let delivered = run.events.count
        try peer.say([Self.fix, Self.fix], to: connection)
        try peer.waitForEOF(connection)
        // The loop has run everything queued before this: any late delivery would be in.
        try run.loop.submit {}.wait()
        #expect(run.events.count == delivered, "\(run.events)")
    }
}

extension GPSDSourceEvent {
    var sampleTime: Timestamp? {
        if case .sample(let sample) = self { return sample.time }
        return nil
    }
}

/// A source on an event loop of its own, with what it delivered and logged.
final class SourceRun: Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var loop: any EventLoop { group.next() }
    let source: GPSDSource
    private let delivery = Watched(Delivery())
    private let logLines = LockedLines()

    /// What the source delivered, and how many of those deliveries were off its loop.
    struct Delivery: Sendable {
        var events: [GPSDSourceEvent] = []
        var offLoop = 0
    }

    init(port: UInt16) throws {
        let loop = group.next()
        let lines = logLines
        var logger = Logger(label: "gpsd-test") { _ in CollectingLogHandler(lines: lines) }
        logger.logLevel = .debug
        let delivery = self.delivery
        source = GPSDSource(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), eventLoop: loop, logger: logger) { event in
            let onLoop = loop.inEventLoop
            delivery.update {
                $0.events.append(event)
                if !onLoop { $0.offLoop += 1 }
            }
        }
        source.start()
    }

    var events: [GPSDSourceEvent] { delivery.current.events }
    var deliveredOffTheLoop: Int { delivery.current.offLoop }
    var log: String { logLines.joined }

    /// Waits (5 s at most) until the events delivered so far satisfy `done`; returns them.
    @discardableResult
    func waitFor(_ done: ([GPSDSourceEvent]) -> Bool) throws -> [GPSDSourceEvent] {
        guard let events = delivery.wait(timeout: 5, for: { done($0.events) ? $0.events : nil }) else {
            throw HarnessError("not within 5 s; delivered \(events); log:\n\(log)")
        }
        return events
    }

    func close() {
        source.stop()
        try? group.syncShutdownGracefully()
    }
}

final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var joined: String { lines.withLock { $0.joined(separator: "\n") } }
}

struct CollectingLogHandler: LogHandler {
    let lines: LockedLines
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}
