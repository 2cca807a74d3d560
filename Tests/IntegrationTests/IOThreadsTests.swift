import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Synchronization
import Testing

/// The app and control connections spread over several event loops (`--io-threads`, issue
/// 27.1): what the hub decides is written by the loop each socket lives on, and nothing an
/// app or a watcher sees may change for it. Three loops on any machine: connections land
/// on them in turn, so the apps of each test are on every loop, the hub's and the others.
@Suite("Connections on several event loops (issue 27.1)")
struct IOThreadsTests {
    static let threeLoops = ["--io-threads", "3"]

    @Test("issue 27.1: --io-threads 3 runs three event loops; 0 and 2000 are refused, naming the option", arguments: ["0", "2000"])
    func loopsCounted(refused: String) throws {
        let daemon = try DaemonHarness(arguments: Self.threeLoops)
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/task").map { task in
            (try? String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/task/\(task)/comm", encoding: .utf8)) ?? ""
        }
        #expect(names.filter { $0.hasPrefix("NIO-ELT-") }.count == 3, "\(names)")
        let result = try run([Binaries.sextantd, "--io-threads", refused, "--no-gpsd", "--no-iio"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--io-threads"), "\(result.stderr)")
    }

    @Test("issue 27.1: on three loops, apps that read at their own pace get every fix of a max replay, once and in order: the replay waits for them")
    func everyFixInOrderOnEveryLoop() throws {
        let daemon = try DaemonHarness(arguments: Self.threeLoops)
        let count = 20_000
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: count, step: 0.01))
        let apps = (0..<5).map { "com.example.loop\($0)" }
        for app in apps { #expect(try daemon.ctl(["permissions", "grant", app]).status == 0) }
        let readers = try apps.map { try LocationReader(runtime: daemon.runtime, app: $0, count: count) }
        _ = try daemon.control().call(Method.replayStart, ["path": .string(trace), "speed": "max"])
        for (app, reader) in zip(apps, readers) {
            let latitudes = try reader.latitudes(timeout: 120)
            #expect(latitudes.count == count, "\(app)")
            #expect(zip(latitudes, latitudes.dropFirst()).allSatisfy { $0 < $1 }, "\(app): every fix once, in order")
        }
        #expect(!daemon.log().contains("not reading"), "a reading app had fixes dropped: \(daemon.log().suffix(2000))")
    }

    @Test("issue 27.1, L9: on three loops, apps revoked mid-stream hear their authorization event and not one more location; the others go on; the watcher sees each revoke")
    func revokeAcrossLoops() throws {
        let daemon = try DaemonHarness(arguments: Self.threeLoops)
        let count = 6000
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: count, step: 0.01))
        let apps = (0..<6).map { "com.example.cut\($0)" }
        for app in apps { #expect(try daemon.ctl(["permissions", "grant", app]).status == 0) }
        var connections: [SextantConnection] = []
        for app in apps {
            let (connection, _) = try daemon.app(app)
            _ = try connection.call(Method.locationStart)
            connections.append(connection)
        }
        let watcher = try daemon.control()
        _ = try watcher.call(Method.watch, ["topics": ["authorization"]])
        let control = try daemon.control()
        _ = try control.call(Method.replayStart, ["path": .string(trace), "speed": 5])
        for connection in connections { _ = try connection.nextEvent(timeout: 10, description: "a first fix") { $0.method == Event.location } }
        // Every other app: on each of the three loops, one revoked and one kept.
        let revoked = stride(from: 0, to: apps.count, by: 2).map { $0 }
        for index in revoked { _ = try control.call(Method.permissionsSet, ["app": .string(apps[index]), "status": "denied"]) }
        for index in revoked {
            _ = try connections[index].events(until: "the revoke") { $0.method == Event.authorization && $0.params["status"] == "denied" }
        }
        // The others go on; then they stop listening, so that a replay at max need not wait for them.
        let kept = Set(apps.indices).subtracting(revoked)
        for index in kept.sorted() {
            _ = try connections[index].call(Method.authorizationGet)  // what was decided before the revoke is read
            _ = try connections[index].takeEvents()
            _ = try connections[index].events(until: "a fix decided after the revoke") { $0.method == Event.location }
            _ = try connections[index].call(Method.locationStop)
        }
        let finished = try daemon.control()
        _ = try finished.call(Method.watch, ["topics": ["replay"]])
        _ = try control.call(Method.replayStart, ["path": .string(trace), "speed": "max"])
        _ = try finished.nextEvent(timeout: 60, description: "the replay to finish") { $0.method == Event.replay && $0.params["state"] == "finished" }
        for (index, connection) in connections.enumerated() {
            _ = try connection.call(Method.authorizationGet)  // a round trip: whatever was written before is read
            let locations = try connection.takeEvents().filter { $0.method == Event.location }.count
            if revoked.contains(index) { #expect(locations == 0, "\(apps[index]): \(locations) locations after its authorization event") }
        }
        let watched = try watcher.takeEvents().filter { $0.method == Event.authorization }.compactMap { $0.params["app"]?.stringValue }
        #expect(Set(watched) == Set(revoked.map { apps[$0] }), "the watcher's authorization events: \(watched)")
    }

    @Test("issue 27.1: on three loops, status is answered 100 times while a --loop replay at max fans out to apps on every loop")
    func statusWhileFanningOut() throws {
        let daemon = try DaemonHarness(arguments: Self.threeLoops)
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 5000, step: 0.01))
        var apps: [SextantConnection] = []
        for index in 0..<4 {
            let app = "com.example.busy\(index)"
            #expect(try daemon.ctl(["permissions", "grant", app]).status == 0)
            let (connection, _) = try daemon.app(app)
            _ = try connection.call(Method.locationStart)
            apps.append(connection)
        }
        let control = try daemon.control()
        _ = try control.call(Method.replayStart, ["path": .string(trace), "speed": "max", "loop": true])
        _ = try apps[0].nextEvent(timeout: 10, description: "a first fix") { $0.method == Event.location }
        var events: [Int] = []
        for _ in 0..<100 {
            let status = try control.call(Method.status)
            #expect(status["replay"]?["state"] == "running")
            events.append(status["replay"]?["events"]?.intValue ?? -1)
        }
        #expect(events.last! > events.first!, "the replay did not move while status was answered: \(events)")
        // A new app on the next loop still says hello.
        let (late, hello) = try daemon.app("com.example.late")
        #expect(hello["session"] != nil)
        withExtendedLifetime((apps, late)) {}
    }
}

/// An app on a thread of its own that streams locations and reads them as they come, as
/// fast as it parses them, until it has `count`.
final class LocationReader: Sendable {
    private let outcome = Mutex<Result<[Double], ClientError>?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)

    /// Returns once the app's stream is started.
    init(runtime: String, app: String, count: Int) throws {
        Thread { [self] in
            let result = Result { () throws(ClientError) -> [Double] in
                let connection = try SextantConnection.app(runtimeDirectory: runtime)
                _ = try connection.call(Method.hello, ["app": .string(app), "state": "foreground"])
                _ = try connection.call(Method.locationStart)
                started.signal()
                var latitudes: [Double] = []
                while latitudes.count < count {
                    let event = try connection.nextEvent(timeout: 60)
                    if event.method == Event.location, let lat = event.params["lat"]?.doubleValue { latitudes.append(lat) }
                }
                return latitudes
            }
            outcome.withLock { $0 = result }
            if case .failure = result { started.signal() }
            finished.signal()
        }.start()
        started.wait()
        if let failure = outcome.withLock({ $0 }), case .failure(let error) = failure { throw error }
    }

    func latitudes(timeout: Double) throws -> [Double] {
        guard finished.wait(timeout: .now() + timeout) == .success else { throw ClientError.timedOut("\(timeout) s for the locations") }
        return try outcome.withLock { $0! }.get()
    }
}
