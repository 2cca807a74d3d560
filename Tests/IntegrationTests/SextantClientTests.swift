import Foundation
@testable import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The one client of the socket protocol, against a real daemon: typed requests and
/// answers, events in the daemon's order, waits that end when the daemon goes away, and a
/// bound on the lines it reads.
@Suite("SextantClient against sextantd")
struct SextantClientTests {
    @Test("Typed requests: answers decoded, the daemon's error as .rpc, many tasks on one connection each get their own answer")
    func requests() async throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        let status = try await control.request(StatusRequest())
        #expect(status["sessions"] == 0)
        // Twenty tasks at once on one connection: the answers come back to their askers.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask {
                    let entry = try await control.request(PermissionsSet(app: "com.example.app\(i)", status: .denied))
                    #expect(entry["app"] == .string("com.example.app\(i)"))
                }
            }
            try await group.waitForAll()
        }
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        let hello = try await app.request(Hello(app: "com.example.client"))
        #expect(hello.authorization.status == .notDetermined)
        // Not authorized: the daemon's 1001, as the client's .rpc.
        do {
            _ = try await app.request(LocationOnce())
            Issue.record("location.once was answered without authorization")
        } catch .rpc(let error) {
            #expect(error.code == 1001)
        }
    }

    @Test("Events arrive in the daemon's order, decoded as SextantEvent")
    func eventsInOrder() async throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        _ = try await control.request(PermissionsSet(app: "com.example.order", status: .authorizedWhenInUse, accuracy: .full))
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try await app.request(Hello(app: "com.example.order"))
        _ = try await app.request(LocationStart())
        let latitudes = (0..<30).map { 40 + Double($0) / 100 }
        for latitude in latitudes {
            _ = try await control.request(DeviceSet(location: WireLocation(latitude: latitude, longitude: 2, horizontalAccuracy: 5)))
        }
        var seen: [Double] = []
        while seen.count < latitudes.count {
            if case .location(let fix) = try await app.event() { seen.append(fix.latitude) }
        }
        #expect(seen == latitudes)
    }

    @Test("A daemon that goes away ends every wait with .closed: a task's event, a task's answer, a blocking wait, and later calls")
    func daemonGoneMidWait() async throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        _ = try await control.request(WatchRequest(topics: [Event.prompt]))
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try await app.request(Hello(app: "com.example.gone"))
        let blocking = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try blocking.call(Hello(app: "com.example.blocked"))

        let answer = Task { try await app.request(AuthorizationRequest(level: .whenInUse)) }
        // The request is pending once its prompt is open.
        guard case .prompt = try await control.event() else { Issue.record("no prompt"); return }
        let event = Task { try await app.event() }
        let blocked = Task.detached { () -> (ClientError?, Double) in
            let start = Date()
            do throws(ClientError) { _ = try blocking.nextEvent(timeout: 60) } catch { return (error, Date().timeIntervalSince(start)) }
            return (nil, Date().timeIntervalSince(start))
        }
        daemon.kill9()
        #expect(await failure(of: answer) == .closed)
        #expect(await failure(of: event) == .closed)
        let (error, waited) = await blocked.value
        #expect(error == .closed)
        #expect(waited < 30, "the blocking wait ended \(waited) s after the daemon died")
        await #expect(throws: ClientError.closed) { _ = try await app.request(AuthorizationGet()) }
    }

    @Test("An answer longer than the client's line limit ends the connection with an error naming the socket and the limit")
    func overLongLine() async throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        // 300 app ids of 200 characters: permissions.list answers with a line over 64 KiB.
        let ids = try (0..<300).map { i throws(ClientError) in
            try control.send(PermissionsSet(app: "com.example." + String(repeating: "x", count: 180) + ".\(i)", status: .denied))
        }
        for id in ids { _ = try await control.answer(to: id) }
        let whole = try await control.request(PermissionsList())
        #expect(whole.arrayValue?.count == 300)
        #expect(whole.serialized().utf8.count > 65_536)

        let path = daemon.runtime + "/control.sock"
        let bounded = try SextantConnection(path: path, lineLimit: 65_536)
        await #expect(throws: ClientError.lineTooLong(path: path, limit: 65_536)) { _ = try await bounded.request(PermissionsList()) }
        #expect(ClientError.lineTooLong(path: path, limit: 65_536).description.contains(path))
        // The connection is over: the next request fails at once, with the same error.
        await #expect(throws: ClientError.lineTooLong(path: path, limit: 65_536)) { _ = try await bounded.request(StatusRequest()) }
        // The daemon is unharmed.
        #expect(try await control.request(StatusRequest())["version"] != nil)
    }

    @Test("Unread messages are bounded: past keptLimit the reader stops reading (one read of at most 64 KiB may bring more), except for an answer waited for; nothing is lost")
    func keptMessagesAreBounded() async throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        _ = try await control.request(PermissionsSet(app: "com.example.bounded", status: .authorizedWhenInUse, accuracy: .full))
        let path = daemon.runtime + "/app.sock"
        let bounded = try SextantConnection(path: path, keptLimit: 8)
        let witness = try SextantConnection(path: path)
        for connection in [bounded, witness] {
            _ = try await connection.request(Hello(app: "com.example.bounded"))
            _ = try await connection.request(LocationStart())
        }
        // 500 fixes, over 64 KiB of lines: more than one read brings, less than the socket holds.
        let latitudes = (0..<500).map { 30 + Double($0) / 1000 }
        let sets = try latitudes.map { latitude throws(ClientError) in
            try control.send(DeviceSet(location: WireLocation(latitude: latitude, longitude: 2, horizontalAccuracy: 5)))
        }
        for id in sets { _ = try await control.answer(to: id) }
        // The witness has every fix: the daemon has written them to both.
        var witnessed = 0
        while witnessed < latitudes.count { if case .location = try await witness.event() { witnessed += 1 } }
        let kept = try bounded.core.take { $0.arrivals.count }
        #expect(kept < latitudes.count, "\(kept) messages read and kept unread")
        // An answer is read through what waits unread.
        #expect(try await bounded.request(AuthorizationGet()).status == .authorizedWhenInUse)
        var seen: [Double] = []
        while seen.count < latitudes.count {
            if case .location(let fix) = try await bounded.event() { seen.append(fix.latitude) }
        }
        #expect(seen == latitudes)
    }

    @Test("A task's wait ends with .cancelled when the task is cancelled; the connection stays usable")
    func cancelledWait() async throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        let waiting = Task { try await control.notification() }
        waiting.cancel()
        #expect(await failure(of: waiting) == .cancelled)
        #expect(try await control.request(StatusRequest())["version"] != nil)
    }
}

/// How a task ended: nil when it returned, else the client's error.
func failure<T: Sendable>(of task: Task<T, any Error>) async -> ClientError? {
    do {
        _ = try await task.value
        return nil
    } catch {
        return error as? ClientError ?? .io("not a ClientError: \(error)")
    }
}

@Suite struct LineFramerTests {
    func lines(_ framer: inout LineFramer, _ text: String) -> (lines: [String], overLimit: Bool) {
        let (lines, overLimit) = Array(text.utf8).withUnsafeBytes { framer.lines(in: $0) }
        return (lines.map { String(decoding: $0, as: UTF8.self) }, overLimit)
    }

    @Test func linesAcrossReadsAndSeveralInOneRead() {
        var framer = LineFramer(limit: 16)
        #expect(lines(&framer, "{\"a\":1}\n{\"b\"") == (["{\"a\":1}"], false))
        #expect(lines(&framer, ":2}\n{}\n") == (["{\"b\":2}", "{}"], false))
        #expect(lines(&framer, "") == ([], false))
    }

    @Test func aLineOverTheLimitIsReportedOnceItPassesIt() {
        var framer = LineFramer(limit: 8)
        #expect(lines(&framer, "12345678\n") == (["12345678"], false))
        #expect(lines(&framer, "1234") == ([], false))
        // The lines before the long one are handed on; the long one is never held whole.
        #expect(lines(&framer, "56789") == ([], true))
        var other = LineFramer(limit: 8)
        #expect(lines(&other, "ok\n123456789\nlater\n") == (["ok"], true))
    }
}
