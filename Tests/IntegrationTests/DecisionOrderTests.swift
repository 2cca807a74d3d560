import Foundation
import SextantClient
import SextantProtocol
import Testing

/// Decision changes take effect after their commit, and still in the order they were asked.
@Suite("Decision changes in order")
struct DecisionOrderTests {
    /// Sends requests in one write, so that the daemon reads them together and handles them
    /// in one turn of its loop, each before the previous one's store write is committed.
    private func sendTogether(_ connection: SextantConnection, _ requests: [(id: Int, method: String, params: JSONValue)]) throws {
        let lines = requests.map { request in
            JSONValue.object([
                "jsonrpc": "2.0", "id": .int(Int64(request.id)), "method": .string(request.method), "params": request.params,
            ]).serialized()
        }
        try connection.writeRaw(lines.joined(separator: "\n") + "\n")
    }

    @Test("L1 L2: changes sent together apply in the order sent, on the engine and on disk")
    func pipelinedChangesApplyInOrder() throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        for round in 0..<10 {
            let app = JSONValue.string("com.example.order\(round)")
            let base = round * 10
            try sendTogether(
                control,
                [
                    (base + 1, Method.permissionsSet, ["app": app, "status": "denied"]),
                    (base + 2, Method.permissionsReset, [:]),  // every app: the one just set included
                    (base + 3, Method.servicesSet, ["enabled": false]),
                    (base + 4, Method.servicesSet, ["enabled": true]),
                ])
            _ = try control.response(to: .int(Int64(base + 1)))
            #expect(try control.response(to: .int(Int64(base + 2)))["count"] == 1, "round \(round): the reset came after the set")
            _ = try control.response(to: .int(Int64(base + 3)))
            _ = try control.response(to: .int(Int64(base + 4)))
            #expect(try control.call(Method.permissionsList).arrayValue?.isEmpty == true, "round \(round)")
            #expect(try control.call(Method.status)["servicesEnabled"] == true, "round \(round): on came after off")
        }
        // And so it is on disk.
        daemon.kill9()
        try daemon.restart()
        #expect(try daemon.control().call(Method.permissionsList).arrayValue?.isEmpty == true)
        #expect(try daemon.control().call(Method.status)["servicesEnabled"] == true)
    }
}
