import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Hostile requests against a real `sextant-panel` on loopback (issue 25, point 4).
@Suite(.serialized) struct PanelSecurityTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func expectSecurityHeaders(_ reply: HTTPReply, _ what: String) {
        #expect(reply.header("Content-Security-Policy") == Self.policy, "\(what): \(reply.headers)")
        #expect(reply.header("X-Content-Type-Options") == "nosniff", "\(what)")
        #expect(reply.header("Referrer-Policy") == "no-referrer", "\(what)")
        #expect(reply.header("Cache-Control") == "no-store", "\(what)")
    }

    @Test func issue25_noTokenOrAWrongTokenIsRefusedAndThePageHoldsNoSecret() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        for (what, headers) in [
            ("no token", [String]()), ("a wrong token", ["Authorization: Bearer " + String(repeating: "0", count: 64)]),
            ("the token under another scheme", ["Authorization: Basic \(panel.token)"]),
            ("a prefix of the token", ["Authorization: Bearer \(panel.token.prefix(32))"]),
        ] {
            let reply = try panel.get("/config.json", headers: headers)
            #expect(reply.status == 401, "\(what): \(reply.status)")
            #expect(reply.body.contains("token"), "\(what)")
            #expect(reply.header("WWW-Authenticate") == "Bearer realm=\"sextant-panel\"", "\(what)")
            expectSecurityHeaders(reply, what)
        }
        // The page and its files are the same for everyone who names the panel's Host.
        let page = try panel.get("/")
        #expect(page.status == 200)
        #expect(page.body.contains("<title>Sextant</title>"))
        #expect(page.header("Set-Cookie") == nil)
        expectSecurityHeaders(page, "the page")
        let config = try JSONValue.parse(try panel.get("/config.json", headers: [panel.authorization]).body)
        #expect(config["tiles"] == .null)
        #expect(config["version"] == .string(sextantVersion))
        #expect(config["socket"] == .string(daemon.runtime + "/control.sock"))
    }

    @Test func issue25_aForeignHostIsRefusedSoThatDNSRebindingReachesNothing() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        for host in ["evil.example:\(panel.port)", "evil.example", "127.0.0.1:1", "localhost.evil.example:\(panel.port)"] {
            let reply = try HTTPReply.exchange(
                port: panel.port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            #expect(reply.status == 403, "Host \(host): \(reply.status)")
            expectSecurityHeaders(reply, "Host \(host)")
        }
        let local = try HTTPReply.exchange(port: panel.port, "GET / HTTP/1.1\r\nHost: localhost:\(panel.port)\r\nConnection: close\r\n\r\n")
        #expect(local.status == 200)
    }

    @Test func issue25_3_aRefusedWebSocketUpgradeSaysWhyWithTheSecurityHeaders() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        let host = "Host: \(panel.host)"
        for (what, headers, status, reason) in [
            ("a foreign Origin", [host, "Origin: http://evil.example", panel.protocols], 403, "Origin http://evil.example is not this panel's"),
            ("an Origin on another port", [host, "Origin: http://127.0.0.1:1", panel.protocols], 403, "Origin http://127.0.0.1:1 is not"),
            ("the null Origin", [host, "Origin: null", panel.protocols], 403, "Origin null is not"),
            ("no Origin", [host, panel.protocols], 403, "Origin (none) is not"),
            ("the right Origin but no token", [host, "Origin: \(panel.origin)"], 401, "needs the panel's token"),
            ("the right Origin and a wrong token", [host, "Origin: \(panel.origin)", "Sec-WebSocket-Protocol: sextant-token.x"], 401, "needs the panel's token"),
            ("a rebound Host", ["Host: evil.example:\(panel.port)", "Origin: http://evil.example:\(panel.port)", panel.protocols], 403,
             "Host evil.example:\(panel.port) is not this panel's address"),
        ] {
            // Refused before the upgrade and answered as the same request without it: the
            // status, the reason, the security headers, and the connection closed.
            switch try PanelWebSocket.handshake(port: panel.port, headers: headers) {
            case .success: Issue.record("\(what): upgraded")
            case .failure(let reply):
                #expect(reply.status == status && reply.body.contains(reason), "\(what): \(reply.status) \(reply.body)")
                expectSecurityHeaders(reply, "\(what), upgrading")
            }
            let plain = try HTTPReply.exchange(port: panel.port, "GET /ws HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n")
            #expect(plain.status == status && plain.body.contains(reason), "\(what): \(plain.status) \(plain.body)")
            expectSecurityHeaders(plain, what)
        }
        // An upgrade elsewhere than /ws is no WebSocket: the path's own answer.
        switch try PanelWebSocket.handshake(port: panel.port, headers: [host, "Origin: \(panel.origin)", panel.protocols, panel.authorization], path: "/config.json") {
        case .success: Issue.record("/config.json upgraded")
        case .failure(let reply):
            #expect(reply.status == 200 && reply.body.contains("\"version\""), "\(reply.status) \(reply.body)")
            expectSecurityHeaders(reply, "an upgrade of /config.json")
        }
        let socket = try panel.webSocket()
        let hello = try socket.next { $0["hello"] != nil }
        #expect(hello["hello"]?["version"] == .string(sextantVersion))
    }

    @Test func issue25_pathsOutOfTheAssetAndLeafletFoldersAreNotFound() throws {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        try FileManager.default.createSymbolicLink(atPath: folders.assets + "/link.txt", withDestinationPath: folders.scratch.file("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: folders.leaflet + "/images/up", withDestinationPath: folders.scratch.path)
        let panel = try PanelProcess(daemon: daemon, folders: folders)
        for target in [
            "/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/%2E%2E%2Fsecret.txt", "/assets/..%2fsecret.txt",
            "/assets/link.txt", "/assets/.hidden", "/assets/images/../../secret.txt", "/leaflet/../secret.txt", "/leaflet/%2e%2e/%2e%2e/secret.txt",
            "/leaflet/images/up/secret.txt", "/leaflet/images/../../secret.txt", "/leaflet/images/%2e%2e/%2e%2e/secret.txt",
            "/assets/panel.js%00.png", "/nope",
        ] {
            // With the token, so that a path outside the page's files is not found rather than refused.
            let reply = try panel.get(target, headers: [panel.authorization])
            #expect(reply.status == 404 || reply.status == 400, "\(target): \(reply.status)")
            #expect(!reply.body.contains("secret"), "\(target)")
            expectSecurityHeaders(reply, target)
        }
        #expect(try panel.get("/assets/panel.js").header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(try panel.get("/leaflet/leaflet.js").status == 200)
        #expect(try panel.get("/leaflet/images/marker-icon.png").header("Content-Type") == "image/png")
    }

    @Test func issue25_listeningBeyondLoopbackTakesTheFlagAndWarns() throws {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        let panel = Binaries.directory + "/sextant-panel"
        let wide = try LineReader(["/bin/sh", "-c", "exec \"$0\" \"$@\" 2>&1", panel, "--socket", daemon.runtime + "/control.sock", "--assets", folders.assets, "--listen", "0.0.0.0:0"])
        defer { wide.stop() }
        #expect(wide.waitForLine(where: { $0.contains("warning") && $0.contains("0.0.0.0") && $0.contains("not loopback") }) != nil, "\(wide.allLines)")
        #expect(wide.waitForLine(where: { $0.hasPrefix("http://127.0.0.1:") && $0.contains("/#token=") }) != nil, "\(wide.allLines)")
        let named = try SextantTestSupport.run([panel, "--socket", daemon.runtime + "/control.sock", "--listen", "evil.example:8080"])
        #expect(named.status == 64)
        #expect(named.stderr.contains("not an IP address"))
        let local = try LineReader(["/bin/sh", "-c", "exec \"$0\" \"$@\" 2>&1", panel, "--socket", daemon.runtime + "/control.sock", "--assets", folders.assets])
        defer { local.stop() }
        #expect(local.waitForLine(where: { $0.hasPrefix("http://127.0.0.1:") }) != nil)
        #expect(!local.allLines.contains { $0.contains("warning") })
    }

    @Test func issue25_withoutADaemonThePanelSaysSoAndExits69() throws {
        let scratch = try TemporaryDirectory("panel")
        let result = try SextantTestSupport.run([Binaries.directory + "/sextant-panel", "--socket", scratch.file("control.sock")])
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot connect to \(scratch.file("control.sock"))"))
    }

    @Test func issue25_sextantctlPanelRunsThePanelBesideItElseSaysItIsMissing() throws {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        let beside = try LineReader([Binaries.sextantctl, "panel", "--socket", daemon.runtime + "/control.sock", "--assets", folders.assets])
        defer { beside.stop() }
        #expect(beside.waitForLine(where: { $0.hasPrefix("http://127.0.0.1:") && $0.contains("/#token=") }) != nil, "\(beside.allLines)")
        // A sextantctl alone in its folder, with nothing on PATH: 69 and why.
        let alone = try TemporaryDirectory("sextantctl-alone")
        try FileManager.default.copyItem(atPath: Binaries.sextantctl, toPath: alone.file("sextantctl"))
        let missing = try SextantTestSupport.run([alone.file("sextantctl"), "panel"], environment: ["PATH": alone.path])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("sextant-panel is not installed"), "\(missing.stderr)")
    }
}
