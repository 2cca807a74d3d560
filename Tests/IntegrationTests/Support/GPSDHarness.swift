import Foundation
import SextantClient
import SextantProtocol
import SextantSocket
import SextantTestSupport
import Synchronization

// A real gpsd for the integration tests: `gpsd -N -n -b -S PORT FIFO` on a free loopback
// port, fed NMEA logs through the FIFO, and a plain-socket client that reads gpsd's own
// TPVs as the reference the daemon's locations are compared with.

/// The gpsd binary, if installed (Debian package gpsd).
enum GPSDBinary {
    static let path: String? = {
        let candidates = ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd", "/sbin/gpsd"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/gpsd" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let requirement = Requirement("needs gpsd (Debian gpsd: Tools/ci/setup.sh installs it)") { path != nil }
}

/// gpsd's regression logs shipped in Traces/gpsd, with the `.chk` output gpsd 3.22 gave.
enum GPSDLog {
    static func path(_ name: String) -> String { Repository.root + "/Traces/gpsd/" + name }

    /// How many TPV reports gpsd produced for the log, per its `.chk` file.
    static func tpvCount(_ name: String) throws -> Int {
        let text = try String(contentsOfFile: path(name) + ".chk", encoding: .utf8)
        // Some .chk files end their lines with CR LF, one Character to Swift: not "\n".
        return text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix(#"{"class":"TPV""#) }.count
    }
    /// How many SKY reports listing satellites gpsd produced for the log, per its `.chk` file.
    static func skyCount(_ name: String) throws -> Int {
        let text = try String(contentsOfFile: path(name) + ".chk", encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix(#"{"class":"SKY""#) && $0.contains(#""satellites":"#) }.count
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on right now.
func freeLoopbackPort() throws -> UInt16 {
    let (fd, port) = try listenOnLoopback()
    close(fd)
    return port
}

/// One gpsd process reading NMEA from a FIFO the test writes to.
///
/// gpsd reads a FIFO once: the write end stays open for the process's lifetime so that
/// several logs can be fed one after the other. gpsd drops privileges to user `gpsd`, so
/// the FIFO sits in a world-readable directory with mode 0666.
final class GPSDProcess: Sendable {
    let port: UInt16
    private let scratch: TemporaryDirectory
    var directory: String { scratch.path }
    let fifo: String
    let logPath: String
    private let process = Process()
    /// The FIFO's write end, -1 once closed: a descriptor is never written after it was
    /// closed (its number may by then belong to another test's socket).
    private let writer = Mutex<Int32>(-1)
    /// Feeds run here one after the other, so a test can go on reading while one runs.
    private let feeder = DispatchQueue(label: "gpsd-feeder")

    /// Starts gpsd on `port` (a free one by default) and waits (up to 10 s) until it both
    /// accepts clients and has opened the FIFO.
    init(port: UInt16? = nil) throws {
        signal(SIGPIPE, SIG_IGN)  // a feed into a killed gpsd must fail with EPIPE, not kill the tests
        guard let binary = GPSDBinary.path else { throw HarnessError("gpsd is not installed") }
        self.port = try port ?? freeLoopbackPort()
        scratch = try TemporaryDirectory("gpsd", mode: 0o755)
        fifo = scratch.file("nmea.fifo")
        logPath = scratch.file("gpsd.log")
        guard mkfifo(fifo, 0o666) == 0, chmod(fifo, 0o666) == 0 else { throw HarnessError("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: binary)
        // -N foreground, -n open the device at once, -b read-only (never reconfigure the "receiver").
        process.arguments = ["-N", "-n", "-b", "-S", String(self.port), fifo]
        process.standardOutput = FileHandle(forWritingAtPath: logPath)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        try launch(process)
        // gpsd listens before it opens the FIFO, and refuses a device that another process
        // already has open: the write end is opened only once gpsd has answered a client,
        // which it does after opening its devices.
        let deadline = monotonicSeconds() + 10
        while monotonicSeconds() < deadline, process.isRunning {
            if (try? GPSDWatcher(port: self.port)) != nil {
                let fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                writer.withLock { $0 = fd }
                if fd >= 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 { return }
                break
            }
            usleep(20_000)  // gpsd is starting: nothing to wait on but the clock
        }
        kill()
        throw HarnessError("gpsd did not come up on port \(self.port) with \(fifo) open:\n\(log())")
    }

    deinit { kill() }

    var isRunning: Bool { process.isRunning }

    /// The log so far. Decoded leniently: a read can end inside a multi-byte character the
    /// daemon is still writing, and a strict decoding would then give nothing at all.
    func log() -> String {
        guard let bytes = FileManager.default.contents(atPath: logPath) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes an NMEA log into the FIFO in the background, a line at a time with `pause`
    /// seconds between lines (0: as one write).
    func feed(_ path: String, pause: Double = 0) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = pause > 0 ? text.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" } : [Substring(text)]
        feeder.async { [self] in
            for line in lines {
                guard writeAll(line) else { return }  // gpsd is gone
                if pause > 0 { usleep(useconds_t(pause * 1e6)) }
            }
        }
    }

    /// On the feeder's queue.
    private func writeAll(_ text: Substring) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let result = writer.withLock { fd in
                fd < 0 ? nil : bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            }
            guard let written = result else { return false }  // closed by kill()
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// SIGSTOP: gpsd freezes with its sockets open, saying nothing to anyone.
    func freeze() { Glibc.kill(process.processIdentifier, SIGSTOP) }

    /// SIGCONT after ``freeze()``.
    func thaw() { Glibc.kill(process.processIdentifier, SIGCONT) }

    /// SIGKILL, as a crash would; waits until the process is gone and any feed has ended
    /// (its next write fails with EPIPE).
    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            _ = waitForEnd(of: process)
        }
        feeder.sync {
            writer.withLock { fd in
                if fd >= 0 { close(fd) }
                fd = -1
            }
        }
    }

}

/// A plain gpsd client, independent of libgps and of the daemon: `?WATCH` JSON, one
/// report a line. The reference for what gpsd itself said.
final class GPSDWatcher {
    private let lines: SocketLines

    /// Connects and waits until gpsd acknowledges the watch.
    init(port: UInt16) throws {
        guard let fd = connectLoopback(port: port) else { throw HarnessError("cannot connect to gpsd on port \(port)") }
        lines = SocketLines(fd: fd, peer: "gpsd")
        lines.send(#"?WATCH={"enable":true,"json":true}"# + "\n")
        _ = try nextReport(timeout: 10) { $0["class"] == "WATCH" }
    }

    /// The next report that matches, waiting up to `timeout` seconds.
    func nextReport(timeout: Double, where matches: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        let deadline = monotonicSeconds() + timeout
        while true {
            let line = try lines.nextLine(timeout: max(0, deadline - monotonicSeconds()))
            if let report = try? JSONValue.parse(line), matches(report) { return report }
        }
    }

    /// The next `count` TPV reports.
    func tpvs(_ count: Int, timeout: Double = 30) throws -> [JSONValue] {
        let deadline = monotonicSeconds() + timeout
        var seen: [JSONValue] = []
        while seen.count < count {
            seen.append(try nextReport(timeout: max(0, deadline - monotonicSeconds())) { $0["class"] == "TPV" })
        }
        return seen
    }
}

/// What gpsd's TPVs must become: the fixes (mode 2 or 3 with a position).
func fixes(among tpvs: [JSONValue]) -> [JSONValue] {
    tpvs.filter { ($0["mode"]?.intValue ?? 0) >= 2 && $0["lat"]?.doubleValue != nil && $0["lon"]?.doubleValue != nil }
}

/// Stands where gpsd was: accepts connections and hangs up at once, saying nothing, and
/// notes when each attempt came. The daemon must treat each as a failed attempt.
final class HangingUpListener {
    /// Closed once, by `close()` or when the listener goes (a failed init included).
    private let socket: OwnedDescriptor
    private var fd: Int32 { socket.raw }

    init(port: UInt16) throws {
        socket = OwnedDescriptor(adopting: try listenOnLoopback(port: port).fd)
    }

    /// Stops listening, so that gpsd can have its port back.
    func close() { socket.close() }

    /// Accepts and hangs up on `count` connections; their arrival times (monotonic s).
    func acceptAndHangUp(_ count: Int, timeout: Double) throws -> [Double] {
        let deadline = monotonicSeconds() + timeout
        var times: [Double] = []
        while times.count < count {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw HarnessError("only \(times.count) connection attempts within \(timeout) s") }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up))) > 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            times.append(monotonicSeconds())
            Glibc.close(client)
        }
        return times
    }
}

extension DaemonHarness {
    /// Starts a daemon fed by the gpsd on `port`.
    convenience init(gpsdPort port: UInt16, arguments: [String] = []) throws {
        try self.init(arguments: ["--gpsd", "127.0.0.1:\(port)"] + arguments)
    }

    /// The gpsd source's state in `status`, or nil when there is none.
    func gpsdState() throws -> String? {
        let sources = try control().call(Method.status)["sources"]?.arrayValue ?? []
        return sources.first { $0["name"] == "gpsd" }?["state"]?.stringValue
    }

    /// Waits (asking `status` every 20 ms) until the gpsd source is in `state`.
    func waitForGPSDState(_ state: String, timeout: Double = 20) throws {
        var last: String?
        try poll(timeout: timeout, failure: { "the gpsd source stayed \(last ?? "absent"), not \(state), for \(timeout) s:\n\(log())" }) {
            last = try gpsdState()
            return last == state ? () : nil
        }
    }

    /// An app with permission, streaming locations.
    func streamingApp(_ id: String) throws -> SextantConnection {
        guard try ctl(["permissions", "grant", id]).status == 0 else { throw HarnessError("cannot grant \(id)") }
        let (app, _) = try app(id)
        _ = try app.call(Method.locationStart)
        return app
    }
}

extension SextantConnection {
    /// The next `count` `location` events; everything else that came is dropped.
    func locations(_ count: Int, timeout: Double = 30) throws -> [JSONValue] {
        let deadline = monotonicSeconds() + timeout
        var seen: [JSONValue] = []
        while seen.count < count {
            let event = try nextEvent(timeout: max(0, deadline - monotonicSeconds()), description: "location \(seen.count + 1) of \(count)") {
                $0.method == Event.location
            }
            seen.append(event.params)
        }
        return seen
    }
}
