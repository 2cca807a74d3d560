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
        let daemon = try DaemonHarness()
        let before = try daemon.memoryKiB("VmRSS")
        let count = 1000
        for index in 0..<count {
            // Each id is new: its claim is written to the store before the session would open.
            let socket = try RawSocket(path: daemon.runtime + "/app.sock")
            try socket.write(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"app":"com.example.gone\#(index)"}}"# + "\n")
        }
        // The store's writer takes claims in order: once this one is answered, every claim
        // above has been written and its session opened, or not.
        let (probe, hello) = try daemon.app("com.example.probe")
        #expect(hello["session"] != nil, "\(hello.serialized())")
        try daemon.waitForStatus("the closed connections' sessions to go") { $0["sessions"] == 1 }
        #expect(try daemon.control().call(Method.appsList).arrayValue?.count == 1)
        let owners = try daemon.control().call(Method.permissionsOwners).arrayValue ?? []
        #expect(owners.count == count + 1, "each claim is kept: the id stays the uid's")
        let grown = try daemon.memoryKiB("VmRSS") - before
        // 1000 left-behind sessions cost about 6.5 MB; the claims alone well under 4.
        #expect(grown < 4096, "resident memory grew by \(grown) KiB")
        probe.close()
        try daemon.waitForStatus("the probe's session to end") { $0["sessions"] == 0 }
    }
}
