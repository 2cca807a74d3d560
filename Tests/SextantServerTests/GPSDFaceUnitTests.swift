import Foundation
import NIOCore
import NIOEmbedded
import SextantCore
import SextantGPSD
import SextantProtocol
import SextantSocket
import SextantTestSupport
import SextantTraces
import Testing

@testable import SextantGPSDFace
@testable import SextantHub
@testable import SextantServer

/// The gpsd face's pure parts: its request framing and parsing, its reports, its NMEA, the
/// /proc lookup and the listen addresses (docs/gpsd.md).
@Suite("gpsd face: requests, reports, NMEA, /proc")
struct GPSDFaceUnitTests {
    /// Each read's requests, as the face's read handler passes them on.
    private func frames(_ reads: [String]) throws -> [GPSDFrame] {
        let channel = EmbeddedChannel(handler: GPSDReadHandler())
        for read in reads { try channel.writeInbound(ByteBuffer(string: read)) }
        var out: [GPSDFrame] = []
        while let frame: GPSDFrame = try channel.readInbound() { out.append(frame) }
        _ = try? channel.finish()
        return out
    }

    private func unrecognized(_ text: String) -> GPSDFrame { .failure(GPSDRequestError("Unrecognized request '\(text)'")) }

    @Test("issue 42.1: each read is read as gpsd 3.22 reads it: no terminator needed at its end, several per read, CR/LF between, a request cut across reads is two pieces")
    func readsAsGPSD() throws {
        let watch: GPSDFrame = .success(.watch(["enable": true, "json": true]))
        #expect(try frames([#"?WATCH={"enable":true,"json":true}"#]) == [watch], "gps3's unterminated ?WATCH")
        #expect(try frames([#"?WATCH={"enable":true,"json":true};"# + "\r\n"]) == [watch])
        #expect(try frames([#"?WATCH={"enable":true,"json":true}"# + "\n"]) == [watch])
        #expect(try frames(["?VERSION;?DEVICES;"]) == [.success(.version), .success(.devices)])
        #expect(try frames(["?VERSION;\r\n?DEVICES;\n", "?POLL; ?WATCH;"]) == [.success(.version), .success(.devices), .success(.poll), .success(.watch(nil))])
        #expect(try frames([#"?WATCH={"enable":true}?VERSION;"#]) == [.success(.watch(["enable": true])), .success(.version)])
        #expect(try frames([#"?WATCH={"device":"a;b}"};"#]) == [.success(.watch(["device": "a;b}"]))])
        #expect(try frames(["?VERSI", "ON;"]) == [unrecognized("?VERSI")], "the second piece does not start with ?")
        #expect(try frames(["?VERSION\r\n", "?VERSION", "?POLL"]) == [unrecognized("?VERSION"), unrecognized("?VERSION"), unrecognized("?POLL")])
        #expect(try frames(["?VERSION;junk"]) == [.success(.version), unrecognized("junk")])
        #expect(try frames(["  ?VERSION;", "\n?VERSION;", "junk ?VERSION;"]) == [], "a read that does not start with ? is ignored")
        #expect(try frames(["?version;"]) == [unrecognized("?version;")])
        guard case .failure(let error) = try frames(["?WATCH={\"enable\":tru;\n"]).first else { throw TestFailure("no ERROR") }
        #expect(error.message.hasPrefix("Invalid WATCH"))
        #expect(try frames(["?DEVICE;", #"?DEVICE={"path":"/dev/x"}"#]) == [.success(.device(configure: false)), .success(.device(configure: true))])
    }

    @Test("?WATCH changes the members it names and keeps the others; unknown members are ignored and wrong types refused, as gpsd")
    func watchMembers() throws {
        let first = try GPSDWatch().applying(["enable": true, "json": true])
        #expect(first.enable && first.json && !first.nmea)
        let second = try first.applying(["nmea": true, "whatever": 3])
        #expect(second.enable && second.json && second.nmea)
        #expect(try GPSDWatch().applying(["enable": true]).json == false, "gpsd 3.22 turns nothing on by itself")
        #expect(throws: GPSDRequestError.self) { try GPSDWatch().applying(["enable": "yes"]) }
        #expect(throws: GPSDRequestError.self) { try GPSDWatch().applying(["raw": 9]) }
        #expect(GPSDRequestReader.requests(in: Array("?NOPE;".utf8)) == [.failure(GPSDRequestError("Unrecognized request '?NOPE;'"))])
    }

    @Test("a TPV carries gpsd's members in gpsd's order and decimals; a fix without altitude is mode 2")
    func tpvReport() throws {
        let time = try #require(Timestamp(rfc3339: "2007-04-08T09:53:05.802Z"))
        let fix = LocationFix(latitude: -27.210911667, longitude: 153.05225, altitude: 3, horizontalAccuracy: 10, verticalAccuracy: 20, speed: 0.993, course: 133.96, time: time)
        #expect(GPSDReport.tpv(fix, device: "sextant:replay") == #"{"class":"TPV","device":"sextant:replay","mode":3,"time":"2007-04-08T09:53:05.802Z","lat":-27.210911667,"lon":153.052250000,"altMSL":3.0000,"alt":3.0000,"epx":7.071,"epy":7.071,"epv":20.000,"track":133.9600,"speed":0.993,"eph":10.000}"# + "\r\n")
        let flat = LocationFix(latitude: 1, longitude: 2, time: time)
        #expect(GPSDReport.tpvObject(flat, device: "d").contains(#""mode":2,"#))
        #expect(GPSDReport.noFix(device: "d") == #"{"class":"TPV","device":"d","mode":1}"# + "\r\n")
    }

    @Test("issue 21.4: magtrack and magvar stand between track and speed as gpsd writes them; magtrack is the course less an east declination; magvar on every fix")
    func tpvMagneticMembers() throws {
        let time = try #require(Timestamp(rfc3339: "2026-05-02T19:41:01.000Z"))
        let fix = LocationFix(latitude: 44.435216667, longitude: -71.675993333, speed: 2.675, course: 77.3, time: time)
        let tpv = GPSDReport.tpvObject(fix, device: "d", declination: -14.62)
        #expect(tpv.contains(#""track":77.3000,"magtrack":91.9200,"magvar":-14.6,"speed":2.675"#), "\(tpv)")
        let still = LocationFix(latitude: 44.4, longitude: -71.6, time: time)
        #expect(GPSDReport.tpvObject(still, device: "d", declination: -14.62).contains(#""epy":3.536,"magvar":-14.6,"eph""#))
        #expect(GPSDReport.tpvObject(LocationFix(latitude: 0, longitude: 0, course: 2, time: time), device: "d", declination: 5).contains(#""magtrack":357.0000"#))
    }

    @Test("issue 21.4: an ATT report: time, true heading, mag_st, mheading and the field, in gpsd's decimals; no heading member without a true heading")
    func attitudeReport() throws {
        let time = try #require(Timestamp(rfc3339: "2026-03-01T08:00:00.250Z"))
        let heading = Heading(magnetic: 87.5, accuracy: 5, field: MagneticField(x: 22.5, y: 5.25, z: -40.125), time: time)
        #expect(GPSDReport.attitude(heading, trueHeading: 91.25, needsCalibration: false, device: "/dev/sextant0")
            == #"{"class":"ATT","device":"/dev/sextant0","time":"2026-03-01T08:00:00.250Z","heading":91.250,"mag_st":"N","mheading":87.500,"mag_x":22.500,"mag_y":5.250,"mag_z":-40.125}"# + "\r\n")
        let compass = Heading(magnetic: 10, accuracy: nil, field: nil, time: time)
        #expect(GPSDReport.attitude(compass, trueHeading: nil, needsCalibration: true, device: "d")
            == #"{"class":"ATT","device":"d","time":"2026-03-01T08:00:00.250Z","mag_st":"C","mheading":10.000}"# + "\r\n")
    }

    @Test("NMEA sentences carry the checksums a receiver's would: the same body as a real log line gives the log's checksum")
    func nmeaChecksums() throws {
        // Lines from Traces/gpsd/haicom-305N.log (a Haicom 305N receiver).
        for line in ["$GPRMC,095328.797,A,2712.6413,S,15303.1235,E,1.55,276.34,080407,,,A*76", "$GPGGA,095328.797,2712.6413,S,15303.1235,E,1,05,07.5,13.4,M,42.2,M,,*4F"] {
            let body = String(line.dropFirst().prefix { $0 != "*" })
            #expect(NMEAEncoder.sentence(body) == line + "\r\n")
        }
        let time = try #require(Timestamp(rfc3339: "2007-04-08T09:53:05.802Z"))
        let rmc = NMEAEncoder.gpsdFace.sentences(for: LocationFix(latitude: -27.2109116, longitude: 153.05225, speed: 1, course: 90, time: time))[1]
        #expect(rmc.hasPrefix("$GPRMC,095305.802,A,2712.654696,S,15303.135000,E,1.944,90.00,080407,,,A*"))
    }

    @Test("/proc/net/tcp: the peer's socket is found by its local and remote addresses, with its uid and inode")
    func procNetTCP() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:0B83 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 11111 1 0000000000000000 100 0 0 10 0
               1: 0100007F:D431 0100007F:0B83 01 00000000:00000000 00:00000000 00000000  1000        0 424242 1 0000000000000000 20 4 30 10 -1
            """
        #expect(ProcNetTCP.find(in: table, peer: ("127.0.0.1", 0xD431), local: ("127.0.0.1", 0x0B83)) == .init(uid: 1000, inode: 424242))
        #expect(ProcNetTCP.find(in: table, peer: ("127.0.0.1", 0xD432), local: ("127.0.0.1", 0x0B83)) == nil)
        let mapped = "0000000000000000FFFF00000100007F"
        #expect(ProcNetTCP.matches(Substring(mapped + ":0B83"), ("127.0.0.1", 2947)))
        #expect(GPSDPeer.appID(command: "gps pipe/x") == "gpsd.gps_pipe_x")
        #expect(GPSDPeer.appID(command: nil) == "gpsd.unknown")
        #expect(GPSDPeer.appID(command: nil, uid: 1000) == "gpsd.uid1000", "issue 28.8: a uid of its own where the name is not known")
        #expect(GPSDPeer.appID(command: "cgps", uid: 1000) == "gpsd.cgps")
    }

    @Test("issue 28.1: sock_diag gives a loopback peer's uid and inode by its addresses; a socket that is gone is not found")
    func socketDiag() throws {
        let (listener, port) = try listenOnLoopback()
        defer { close(listener) }
        let client = try #require(connectLoopback(port: port))
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &length) } }
        let clientPort = Int(UInt16(bigEndian: address.sin_port))
        var info = stat()
        #expect(fstat(client, &info) == 0)
        let diag = try #require(SocketDiag())
        let found = diag.tcpSocket(source: ("127.0.0.1", clientPort), destination: ("127.0.0.1", Int(port)))
        #expect(found == ProcNetTCP.Entry(uid: getuid(), inode: UInt64(info.st_ino)))
        #expect(diag.tcpSocket(source: ("127.0.0.1", clientPort), destination: ("127.0.0.1", Int(port) ^ 1)) == nil)
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(client)
        #expect(diag.tcpSocket(source: ("127.0.0.1", clientPort), destination: ("127.0.0.1", Int(port))) == nil)
    }

    @Test("a gpsd client's process is the topmost holder of its socket: a child it is starting, holding the socket from fork to exec under its new name, does not lend it that name")
    func peerProcessIsTheTopmostHolder() throws {
        let proc = try TemporaryDirectory("fake-proc")
        /// A process of this uid: its parent, name and the sockets it holds.
        func process(_ pid: Int32, parent: Int32, name: String, sockets: [UInt64]) throws {
            let directory = proc.file("\(pid)")
            try FileManager.default.createDirectory(atPath: directory + "/fd", withIntermediateDirectories: true)
            try "\(pid) (\(name)) S \(parent) \(pid) \(pid) 0 -1\n".write(toFile: directory + "/stat", atomically: true, encoding: .utf8)
            try "\(name)\n".write(toFile: directory + "/comm", atomically: true, encoding: .utf8)
            for (fd, inode) in sockets.enumerated() {
                try FileManager.default.createSymbolicLink(atPath: directory + "/fd/\(fd + 3)", withDestinationPath: "socket:[\(inode)]")
            }
        }
        try process(100, parent: 1, name: "test runner (1)", sockets: [4242, 7])
        try process(200, parent: 100, name: "libgps-reader", sockets: [4242])  // between exec and close-on-exec
        try process(300, parent: 1, name: "gpspipe", sockets: [9])
        try process(400, parent: 300, name: "child", sockets: [9, 5])
        #expect(GPSDPeer.pidHolding(socketInode: 4242, uid: getuid(), proc: proc.path) == 100)
        #expect(GPSDPeer.pidHolding(socketInode: 5, uid: getuid(), proc: proc.path) == 400, "its parent does not hold that one")
        #expect(GPSDPeer.pidHolding(socketInode: 9, uid: getuid(), proc: proc.path) == 300)
        #expect(GPSDPeer.pidHolding(socketInode: 8, uid: getuid(), proc: proc.path) == nil)
        #expect(GPSDPeer.parentPID(of: 100, proc: proc.path) == 1)
    }

    @Test("/proc files are read to their end, past the page that Foundation's String(contentsOfFile:) stops at")
    func procFileToTheEnd() throws {
        let text = try #require(ProcFile.read("/proc/self/maps"))
        let reference = try #require(try FileHandle(forReadingAtPath: "/proc/self/maps")?.readToEnd())
        #expect(text.utf8.count > 4096, "a test process maps more than a page's worth")
        #expect(text.split(separator: "\n").last == String(decoding: reference, as: UTF8.self).split(separator: "\n").last)
    }

    @Test("--gpsd-listen: PORT, HOST:PORT, [IPV6]:PORT; loopback or not")
    func listenAddresses() throws {
        #expect(GPSDListenAddress(parsing: "2947") == GPSDListenAddress(parsing: "127.0.0.1:2947"))
        #expect(GPSDListenAddress(parsing: "[::1]:2947")?.host == "::1")
        #expect(GPSDListenAddress(parsing: "::1:2947") == nil)
        #expect(GPSDListenAddress.problem("70000")?.contains("0...65535") == true)
        #expect(try GPSDListenAddress(parsing: "[::1]:0")!.isLoopback())
        #expect(try GPSDListenAddress(parsing: "127.0.0.2:0")!.isLoopback())
        #expect(try !GPSDListenAddress(parsing: "0.0.0.0:0")!.isLoopback())
    }
}
