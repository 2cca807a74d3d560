import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// An app id belongs to the first uid that says hello with it (docs/security.md).
@Suite("App ids bound to uids")
struct AppOwnerTests {
    /// The sample app run as `uid` (setpriv), saying hello as `app`. The prompt policy
    /// `dontAllow` lets it finish at once when its hello is accepted.
    private func sampleApp(_ daemon: DaemonHarness, app: String, asUser uid: UInt32) throws -> CommandResult {
        try run([
            "/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
            Binaries.sampleApp, "--runtime-dir", daemon.runtime, "--app", app,
        ])
    }

    private func owners(_ daemon: DaemonHarness) throws -> JSONValue {
        let listed = try daemon.ctl(["permissions", "owners", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        return try JSONValue.parse(listed.stdout)
    }

    private func daemonReachableByOthers() throws -> DaemonHarness {
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "dontAllow"], directoryMode: 0o755)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: daemon.runtime)
        return daemon
    }

    @Test("An app id first used by root is refused to uid 65534 with 1009, across a kill -9, until unbound")
    func otherUserCannotClaimAnAppID() throws {
        let daemon = try daemonReachableByOthers()
        do {
            // The policy's dontAllow is stored: the binding is stored with it.
            let (app, _) = try daemon.app("com.example.rootapp")
            _ = try? app.call(Method.authorizationRequest, ["level": "whenInUse"])
            app.close()
        }
        #expect(try owners(daemon) == [["app": "com.example.rootapp", "uid": 0]])

        let refused = try sampleApp(daemon, app: "com.example.rootapp", asUser: 65534)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("error 1009") && refused.stdout.contains("belongs to uid 0"), "\(refused.stdout)\(refused.stderr)")
        #expect(try daemon.control().call(Method.appsList).arrayValue?.isEmpty == true, "a refused hello opens no session")

        // The binding is on disk: a restart does not free the id.
        daemon.kill9()
        try daemon.restart()
        #expect(try sampleApp(daemon, app: "com.example.rootapp", asUser: 65534).status == 1)

        // Unbound, the id goes to the next uid that says it, and root is refused in turn.
        let unbound = try daemon.ctl(["permissions", "unbind", "com.example.rootapp"])
        #expect(unbound.status == 0 && unbound.stdout.contains("unbound from uid 0"), "\(unbound.stdout)\(unbound.stderr)")
        let accepted = try sampleApp(daemon, app: "com.example.rootapp", asUser: 65534)
        #expect(accepted.status == 0 && accepted.stdout.contains("hello: session"), "\(accepted.stdout)\(accepted.stderr)")
        #expect(try owners(daemon) == [["app": "com.example.rootapp", "uid": 65534]])
        let connection = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        #expect {
            try connection.call(Method.hello, ["app": "com.example.rootapp"])
        } throws: { error in
            guard case ClientError.rpc(let rpc) = error else { return false }
            return rpc.code == 1009 && rpc.data?["owner"] == 65534 && rpc.data?["uid"] == 0
        }
    }

    @Test("permissions list shows the uid an app id is bound to")
    func permissionsListShowsTheUID() throws {
        let daemon = try daemonReachableByOthers()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.unused"]).status == 0)
        // The policy answers its request with dontAllow: a stored decision, made by uid 65534.
        #expect(try sampleApp(daemon, app: "com.example.bound", asUser: 65534).status == 0)
        let list = try JSONValue.parse(try daemon.ctl(["permissions", "list", "--json"]).stdout).arrayValue ?? []
        #expect(list.map { $0["uid"] } == [65534, .null])
        let table = try daemon.ctl(["permissions", "list"]).stdout
        #expect(table.contains("UID") && table.contains("65534"), "\(table)")
    }
}
