import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 42.1: the gpsd face reads a client's bytes as gpsd 3.22 reads them. A real gpsd
/// and Sextant's face are each sent the same writes over TCP, and answer with the same
/// classes of reports (docs/compatibility.md).
@Suite("gpsd face: requests read as gpsd 3.22 reads them", .serialized, .requires(GPSDBinary.requirement))
struct GPSDRequestCompatTests {
    /// One client write and the answers gpsd 3.22 gives it (classes, in order).
    struct Write: CustomStringConvertible {
        let bytes: String
        let answers: [String]
        var description: String { bytes.debugDescription }
    }

    /// Each case is one connection; each write is read by the server on its own.
    static let cases: [[Write]] = [
        [Write(bytes: #"?WATCH={"enable":true,"json":true}"#, answers: ["DEVICES", "WATCH"])],  // Python's gps3
        [Write(bytes: "?VERSION;?DEVICES;", answers: ["VERSION", "DEVICES"])],
        [Write(bytes: "?VERSION;\r\n", answers: ["VERSION"]), Write(bytes: "?DEVICES;\n", answers: ["DEVICES"])],
        [Write(bytes: #"?WATCH={"enable":true,"json":true};"# + "\r\n", answers: ["DEVICES", "WATCH"])],
        [Write(bytes: #"?WATCH={"enable":true}"# + "\n?VERSION;\n", answers: ["DEVICES", "WATCH", "VERSION"])],
        [Write(bytes: "?VERSION\n", answers: ["ERROR"]), Write(bytes: "?VERSION\r\n", answers: ["ERROR"])],
        [Write(bytes: "?VERSI", answers: ["ERROR"]), Write(bytes: "ON;", answers: [])],
        [Write(bytes: "?VERSION;junk", answers: ["VERSION", "ERROR"]), Write(bytes: " ?VERSION;", answers: [])],
    ]

    /// Reports that answer requests; a watcher's TPVs and SKYs are data, not answers (an
    /// unauthorized Sextant client hears a no-fix TPV after its WATCH, docs/gpsd.md).
    static let answerClasses: Set<String> = ["VERSION", "DEVICES", "DEVICE", "WATCH", "POLL", "ERROR"]

    @Test("issue 42.1: unterminated, several per write, split across writes, CR LF, LF and ;CR LF: Sextant's gpsd face answers as a real gpsd 3.22")
    func sameAnswersAsGPSD() throws {
        let gpsd = try GPSDProcess()
        defer { gpsd.kill() }
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        let sextant = try daemon.gpsdFacePort()
        for (index, writes) in Self.cases.enumerated() {
            let theirs = try Self.answers(port: gpsd.port, writes: writes, probe: "?GPSD-PROBE-\(index);")
            let ours = try Self.answers(port: sextant, writes: writes, probe: "?SEXTANT-PROBE-\(index);")
            let expected = writes.map(\.answers)
            #expect(theirs == expected, "gpsd 3.22 to \(writes): \(theirs)")
            #expect(ours == expected, "Sextant to \(writes): \(ours)")
        }
    }

    /// The answer classes each write got, on a new connection to `port`. A write is sent
    /// once the server has read everything before it (so that each is one read), then a
    /// probe the server answers with an ERROR naming it, which ends that write's answers.
    static func answers(port: UInt16, writes: [Write], probe: String) throws -> [[String]] {
        guard let fd = connectLoopback(port: port) else { throw HarnessError("cannot connect to port \(port)") }
        let client = SocketLines(fd: fd, peer: "port \(port)")
        guard try JSONValue.parse(client.nextLine(timeout: 10))["class"] == "VERSION" else { throw HarnessError("no banner on \(port)") }
        var answers: [[String]] = []
        for write in writes {
            client.send(write.bytes)
            try waitUntilRead(fd: fd, serverPort: port)
            client.send(probe)
            try waitUntilRead(fd: fd, serverPort: port)
            answers.append(try classes(from: client, until: probe))
        }
        return answers
    }

    private static func classes(from client: SocketLines, until probe: String) throws -> [String] {
        var seen: [String] = []
        while true {
            let report = try JSONValue.parse(client.nextLine(timeout: 10))
            if report["class"] == "ERROR", report["message"]?.stringValue?.contains(probe.dropLast()) == true { return seen }
            if let name = report["class"]?.stringValue, answerClasses.contains(name) { seen.append(name) }
        }
    }

    /// Waits until the server has read all this client sent: the client's end has nothing
    /// unacknowledged and the server's end nothing left to read (/proc/net/tcp's and tcp6's queues).
    static func waitUntilRead(fd: Int32, serverPort: UInt16, timeout: Double = 10) throws {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        func hex(_ port: UInt16) -> String {
            let digits = String(port, radix: 16, uppercase: true)
            return ":" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        let server = hex(serverPort), client = hex(UInt16(bigEndian: address.sin_port))
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            // A server listening on :: has its end of an IPv4 connection in tcp6.
            let rows = ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { procFile($0).split(separator: "\n") }.map { $0.split(separator: " ") }
            func queues(local: String, remote: String) -> [Int]? {
                rows.first { $0.count > 4 && $0[1].hasSuffix(local) && $0[2].hasSuffix(remote) }.map { $0[4].split(separator: ":").compactMap { Int($0, radix: 16) } }
            }
            if queues(local: client, remote: server)?.first == 0, queues(local: server, remote: client)?.last == 0 { return }
            usleep(5_000)
        }
        throw HarnessError("port \(serverPort) did not read what \(client) sent within \(timeout) s")
    }

    /// A /proc file read to its end (its size shows as 0, and it comes a page a read).
    static func procFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
