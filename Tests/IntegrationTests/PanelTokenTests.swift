import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 36, 3 and 14: the panel's token stays with its own origin (no cookie, which every
/// server on 127.0.0.1 would get), and `/ws` refuses as docs/panel.md says.
@Suite(.serialized) struct PanelTokenTests {
    @Test func issue36_3_theTokenIsNeverACookieAndACookieAdmitsNothing() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let cookie = "Cookie: sextant-panel=\(panel.token)"
        // The page's files hold no secret and set nothing, with the token in the query or not.
        for target in ["/", "/?token=\(panel.token)", "/assets/panel.js"] {
            let reply = try panel.get(target)
            #expect(reply.status == 200, "\(target): \(reply.status)")
            #expect(reply.header("Set-Cookie") == nil, "\(target) sets \(reply.header("Set-Cookie") ?? "")")
            #expect(!reply.body.contains(panel.token), "\(target)")
        }
        // The token as a cookie or in the query opens nothing: only Authorization does.
        for (what, target, headers) in [
            ("a cookie", "/config.json", [cookie]), ("the query", "/config.json?token=\(panel.token)", []),
            ("a wrong bearer", "/config.json", ["Authorization: Bearer \(String(panel.token.reversed()))"]),
            ("a prefix of the token", "/config.json", ["Authorization: Bearer \(panel.token.prefix(32))"]),
        ] {
            let reply = try panel.get(target, headers: headers)
            #expect(reply.status == 401, "\(what): \(reply.status)")
            #expect(reply.header("Set-Cookie") == nil)
        }
        let config = try panel.get("/config.json", headers: [panel.authorization])
        #expect(config.status == 200)
        #expect(try JSONValue.parse(config.body)["socket"] == .string(daemon.runtime + "/control.sock"))
        // The WebSocket with the token as a cookie only: 401.
        switch try PanelWebSocket.handshake(port: panel.port, headers: ["Host: \(panel.host)", "Origin: \(panel.origin)", cookie]) {
        case .success: Issue.record("a cookie opened the WebSocket")
        case .failure(let reply): #expect(reply.status == 401, "\(reply.status) \(reply.body)")
        }
    }

    @Test func issue36_14_wsRefusesAMissingTokenWith401AndAForeignOriginOrHostWith403() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let host = "Host: \(panel.host)"
        let wrong = "Sec-WebSocket-Protocol: sextant-panel, sextant-token.\(String(repeating: "0", count: 64))"
        for (what, headers, status) in [
            ("no token", [host, "Origin: \(panel.origin)"], 401), ("a wrong token", [host, "Origin: \(panel.origin)", wrong], 401),
            ("a foreign Origin", [host, "Origin: http://evil.example", panel.protocols], 403),
            ("a foreign Host", ["Host: evil.example:\(panel.port)", "Origin: http://evil.example:\(panel.port)", panel.protocols], 403),
        ] {
            switch try PanelWebSocket.handshake(port: panel.port, headers: headers) {
            case .success: Issue.record("\(what): upgraded")
            case .failure(let reply): #expect(reply.status == status, "\(what): \(reply.status) \(reply.body)")
            }
            let plain = try HTTPReply.exchange(port: panel.port, "GET /ws HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n")
            #expect(plain.status == status, "\(what), plain GET: \(plain.status) \(plain.body)")
        }
    }

    @Test func issue36_14_aRequestWithTwoHostsIsRefusedWith400() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        for hosts in [["Host: \(panel.host)", "Host: evil.example"], ["Host: \(panel.host)", "Host: \(panel.host)"]] {
            let plain = try HTTPReply.exchange(port: panel.port, "GET / HTTP/1.1\r\n" + hosts.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n")
            #expect(plain.status == 400, "\(hosts): \(plain.status)")
            switch try PanelWebSocket.handshake(port: panel.port, headers: hosts + ["Origin: \(panel.origin)", panel.protocols]) {
            case .success: Issue.record("\(hosts): upgraded")
            case .failure(let reply): #expect(reply.status == 400, "\(hosts), upgrading: \(reply.status) \(reply.body)")
            }
        }
    }

    @Test func issue36_14_anUnmaskedFrameIsClosedWith1002AndInvalidUTF8With1007() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let unmasked = try panel.webSocket()
        _ = try unmasked.next { $0["hello"] != nil }
        unmasked.send(Array(#"{"id":1,"method":"status"}"#.utf8), masked: false)
        #expect(try unmasked.closeCode() == 1002)
        let invalid = try panel.webSocket()
        _ = try invalid.next { $0["hello"] != nil }
        invalid.send([0x7B, 0xC3, 0x28, 0x7D])
        #expect(try invalid.closeCode() == 1007)
        // A page that keeps to the rules is served as before.
        let good = try panel.webSocket()
        good.call(1, "status")
        #expect(try good.answer(1)["result"] != nil)
    }
}
