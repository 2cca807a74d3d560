import NIOCore
import SextantProtocol
import Testing

@testable import SextantBrowser

/// The pure parts of what the bridge checks and bounds on its DevTools side (issue 36.8)
/// and of what it asks of app.sock (36.7).
@Suite("DevTools peer: owner, addresses, pipe framing, answers; the link's requests")
struct DevToolsPeerTests {
    /// /proc/net/tcp6 as the kernel writes it: a dual-stack listener on 9222 of uid 1000,
    /// the server's side of a connection from 127.0.0.1:50000 (IPv4-mapped) of uid 65534,
    /// and [::1]:9223's side of one from [::1]:50001 of uid 1000.
    static let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000000000000:2406 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 100 1 0
           1: 0000000000000000FFFF00000100007F:2406 0000000000000000FFFF00000100007F:C350 01 00000000:00000000 00:00000000 00000000 65534        0 101 1 0
           2: 00000000000000000000000001000000:2407 00000000000000000000000001000000:C351 01 00000000:00000000 00:00000000 00000000  1000        0 102 1 0
        """

    @Test("The owner of the server's side of a connection, IPv4-mapped or IPv6; none for a connection not listed")
    func ownerFromTheKernelTable() {
        #expect(DevToolsPeer.owner(in: Self.tcp6, server: ("127.0.0.1", 9222), client: ("127.0.0.1", 50000)) == 65534)
        #expect(DevToolsPeer.owner(in: Self.tcp6, server: ("::1", 9223), client: ("::1", 50001)) == 1000)
        #expect(DevToolsPeer.owner(in: Self.tcp6, server: ("127.0.0.1", 9222), client: ("127.0.0.1", 50002)) == nil)
    }

    @Test("--cdp addresses: IPv4, [IPv6] and localhost; a name or a missing port is refused")
    func addresses() throws {
        #expect(try DevToolsAddress.hostAndPort("http://[::1]:9222") == ("::1", 9222))
        #expect(try DevToolsAddress.hostAndPort("ws://127.0.0.1:9222/devtools/browser/x") == ("127.0.0.1", 9222))
        #expect(try DevToolsAddress.hostAndPort("http://localhost:9222") == ("localhost", 9222))
        #expect(throws: DevToolsAddress.Failure.self) { try DevToolsAddress.hostAndPort("http://example.org:9222") }
        #expect(throws: DevToolsAddress.Failure.self) { try DevToolsAddress.hostAndPort("http://[::1]") }
        #expect(DevToolsAddress.authority("::1", 9222) == "[::1]:9222")
    }

    @Test("An HTTP answer is whole at its Content-Length, whatever follows")
    func httpAnswer() {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n".utf8)
        #expect(HTTPAnswer.body(head + Array("{}".utf8)) == nil)
        #expect(HTTPAnswer.body(head + Array("{ }\n and more".utf8)) == "{ }\n")
    }

    @Test("The pipe's messages: split at NUL, a message in pieces joined, one over the limit refused before it is whole")
    func pipeFraming() throws {
        var decoder = NULFramedMessages(limit: 8)
        var buffer = ByteBuffer(string: "{\"a\":1}\0{\"b\"")
        #expect(try decoder.take(from: &buffer).map { String(buffer: $0) } == "{\"a\":1}")
        #expect(try decoder.take(from: &buffer) == nil)
        buffer.writeString(":2}\0")
        #expect(try decoder.take(from: &buffer).map { String(buffer: $0) } == "{\"b\":2}")
        var endless = ByteBuffer(string: String(repeating: "x", count: 9))
        #expect(throws: PipeMessageTooLarge.self) { try decoder.take(from: &endless) }
    }

    @Test("What the pages ask is the latest state and whether one asked: 20,000 flips are one state")
    func askedIsBounded() {
        var asked = AppLink.Asked()
        for flip in 0..<20_000 { asked.add(.state(flip % 2 == 0 ? .foreground : .background)) }
        asked.add(.authorization)
        asked.add(.authorization)
        #expect(asked == AppLink.Asked(state: .background, authorization: true))
    }
}
