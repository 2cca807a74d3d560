import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 28 findings 5 and 10: what a client or a starter can leave the daemon holding, or
/// make it adopt.
@Suite("Lifecycles under attack (issue 28.5, 28.10)")
struct LifecycleRobustnessTests {
    @Test("issue 28.5: connections that say hello with a new app id and close at once leave no session behind")
    func helloThenCloseLeavesNoSession() throws {
        let daemon = try DaemonHarness(arguments: ["--io-threads", "3"])  // most connections on other loops than the hub's
        let before = try daemon.memoryKiB("VmRSS")
        let count = 1000
        for index in 0..<count {
            // Each id is new: bound in memory, its session opened (or not: its peer is gone) at once.
            let socket = try RawSocket(path: daemon.runtime + "/app.sock")
            try socket.write(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"app":"com.example.gone\#(index)"}}"# + "\n")
        }
        let (probe, hello) = try daemon.app("com.example.probe")
        #expect(hello["session"] != nil, "\(hello.serialized())")
        // Connections on other loops than the probe's (--io-threads) are read in their own
        // time: once every claim is kept, every session has opened, or not, and closed.
        var claimed = 0
        try poll(timeout: 30, failure: { "every hello is claimed (the daemon logs each): \(claimed) of \(count)" }) {
            claimed = daemon.log().split(separator: "\n").filter { $0.contains("app id bound to its first uid") && $0.contains("com.example.gone") }.count
            return claimed == count ? () : nil
        }
        try daemon.waitForStatus("the closed connections' sessions to go") { $0["sessions"] == 1 }
        // Nothing stored, and the bindings gone with their sessions: only the probe's is held.
        #expect(try daemon.control().call(Method.permissionsOwners) == [["app": "com.example.probe", "uid": .int(Int64(getuid())), "stored": false]])
        #expect(try daemon.control().call(Method.appsList).arrayValue?.count == 1)
        let grown = try daemon.memoryKiB("VmRSS") - before
        // 1000 left-behind sessions cost about 6.5 MB; the claims alone well under 4.
        #expect(grown < 4096, "resident memory grew by \(grown) KiB")
        probe.close()
        try daemon.waitForStatus("the probe's session to end") { $0["sessions"] == 0 }
    }
}
