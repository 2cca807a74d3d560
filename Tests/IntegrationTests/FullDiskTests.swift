import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The store on a small tmpfs filled to the last byte: every change fails with a clear
/// -32603, and nothing of it takes effect (issue 9, point 14).
@Suite("A store on a full disk", .requires(.root("mounting a tmpfs")))
struct FullDiskTests {
    /// A 2 MiB tmpfs for the store, unmounted when the test ends.
    final class SmallDisk {
        let path: String
        init(under directory: String) throws {
            path = directory + "/small-state"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let mounted = try run(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", path])
            try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        }

        /// Writes zeros until the disk is full (dd stops with ENOSPC).
        func fill() throws {
            let result = try run(["/usr/bin/dd", "if=/dev/zero", "of=\(path)/filler", "bs=4096"])
            try #require(result.stderr.contains("No space left"), "dd: \(result.stderr)")
        }

        func free() throws { try FileManager.default.removeItem(atPath: path + "/filler") }

        deinit { _ = try? run(["/usr/bin/umount", "-l", path]) }
    }

    private func failsForFullDisk(_ daemon: DaemonHarness, _ arguments: [String]) throws {
        let result = try daemon.ctl(arguments)
        #expect(result.status != 0, "\(arguments) succeeded on a full disk")
        #expect(result.stderr.contains("-32603"), "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("the disk is full") && result.stderr.contains("nothing was changed"), "\(arguments): \(result.stderr)")
    }

    private func snapshot(_ daemon: DaemonHarness) throws -> (permissions: String, services: JSONValue?, policy: JSONValue?, prompts: String) {
        let status = try JSONValue.parse(try daemon.ctl(["status", "--json"]).stdout)
        return (
            try daemon.ctl(["permissions", "list", "--json"]).stdout, status["servicesEnabled"], status["promptPolicy"],
            try daemon.ctl(["prompts", "list", "--json"]).stdout
        )
    }

    @Test("L2 L9 L12: on a full disk grant, revoke, reset, services, policy and prompt answers fail and change nothing")
    func failedWritesChangeNothing() throws {
        let scratch = try TemporaryDirectory("full")
        let root = scratch.path
        let disk = try SmallDisk(under: root)
        let daemon = try DaemonHarness(state: disk.path)
        #expect(try daemon.ctl(["permissions", "grant", "com.example.kept"]).status == 0)
        let (kept, _) = try daemon.app("com.example.kept")
        let (asking, _) = try daemon.app("com.example.asking")
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        let request = try asking.send(Method.authorizationRequest, ["level": "whenInUse"])
        let prompt = try control.nextEvent(timeout: 10, description: "the prompt") { $0.method == Event.prompt }
        let promptID = try #require(prompt.params["id"]?.stringValue)
        let before = try snapshot(daemon)

        try disk.fill()
        try failsForFullDisk(daemon, ["permissions", "grant", "com.example.new"])
        try failsForFullDisk(daemon, ["permissions", "revoke", "com.example.kept"])
        try failsForFullDisk(daemon, ["permissions", "reset", "com.example.kept"])
        try failsForFullDisk(daemon, ["permissions", "reset"])
        try failsForFullDisk(daemon, ["services", "off"])
        try failsForFullDisk(daemon, ["prompts", "policy", "dontAllow"])
        try failsForFullDisk(daemon, ["prompts", "answer", promptID, "allowWhileUsing"])
        let after = try snapshot(daemon)
        #expect(after.permissions == before.permissions)
        #expect(after.services == before.services && after.policy == before.policy)
        #expect(after.prompts == before.prompts, "the prompt is still open")
        #expect(try !asking.hasResponse(to: request), "the request was not answered by a failed answer")

        // With room again, the next change is the first one the apps hear of.
        try disk.free()
        #expect(try daemon.ctl(["permissions", "set", "com.example.kept", "denied"]).status == 0)
        let heard = try kept.nextEvent(timeout: 10, description: "the denial") {
            $0.method == Event.authorization || $0.method == Event.servicesEnabled
        }
        #expect(heard.method == Event.authorization && heard.params["status"] == "denied", "\(heard.method) \(heard.params)")
        #expect(try daemon.ctl(["prompts", "answer", promptID, "dontAllow"]).status == 0)
        #expect(try asking.response(to: request)["status"] == "denied")
        let askingHeard = try asking.nextEvent(timeout: 10, description: "the answer") {
            $0.method == Event.authorization || $0.method == Event.servicesEnabled
        }
        #expect(askingHeard.method == Event.authorization && askingHeard.params["status"] == "denied")
        withExtendedLifetime(disk) {}  // mounted until the daemon is done with it
    }

    @Test("L12: a prompt the policy answers at once is not shown, stored or told when the store cannot be written")
    func policyAnswerOnFullDiskChangesNothing() throws {
        let scratch = try TemporaryDirectory("full")
        let root = scratch.path
        let disk = try SmallDisk(under: root)
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "allowWhileUsing"], state: disk.path)
        let (app, _) = try daemon.app("com.example.auto")
        let watcher = try daemon.control()
        _ = try watcher.call(Method.watch, ["topics": ["prompt", "promptClosed"]])

        try disk.fill()
        #expect {
            try app.call(Method.authorizationRequest, ["level": "whenInUse"])
        } throws: { error in
            guard case ClientError.rpc(let rpc) = error else { return false }
            return rpc.code == -32603 && rpc.message.contains("the disk is full")
        }
        #expect(try daemon.ctl(["permissions", "list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try app.call(Method.authorizationGet)["status"] == "notDetermined")

        // With room again the app may ask again (its failed request was no prompt), and the
        // watcher sees only that one prompt; the app hears only that decision.
        try disk.free()
        #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")
        _ = try watcher.call(Method.status)  // answered after every event sent before it
        #expect(try watcher.takeEvents().map(\.method) == [Event.prompt, Event.promptClosed])
        let heard = try app.nextEvent(timeout: 10, description: "the decision") { $0.method == Event.authorization }
        #expect(heard.params["status"] == "authorizedWhenInUse")
        #expect(try app.takeEvents().filter { $0.method == Event.authorization }.isEmpty)
        withExtendedLifetime(disk) {}
    }

    @Test("L4 L12: an app that comes forward with a request waiting is answered by the policy only once stored; on a full disk it stays behind")
    func comingForwardOnFullDiskChangesNothing() throws {
        let scratch = try TemporaryDirectory("full")
        let root = scratch.path
        let disk = try SmallDisk(under: root)
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "allowWhileUsing"], state: disk.path)
        let (app, _) = try daemon.app("com.example.late", state: "background")
        let request = try app.send(Method.authorizationRequest, ["level": "whenInUse"])
        _ = try app.call(Method.authorizationGet)  // the request is in: it waits for the foreground (L4)

        try disk.fill()
        let refused = try daemon.ctl(["apps", "foreground", "com.example.late"])
        #expect(refused.status != 0 && refused.stderr.contains("-32603"), "\(refused.stderr)")
        #expect(try daemon.ctl(["permissions", "list", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let apps = try JSONValue.parse(try daemon.ctl(["apps", "list", "--json"]).stdout)
        #expect(apps.arrayValue?.first?["state"] == "background", "nothing moved")
        #expect(try !app.hasResponse(to: request))

        try disk.free()
        #expect(try daemon.ctl(["apps", "foreground", "com.example.late"]).status == 0)
        #expect(try app.response(to: request)["status"] == "authorizedWhenInUse")
        withExtendedLifetime(disk) {}
    }
}
