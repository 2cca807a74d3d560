import Foundation
import SextantClient
import SextantProtocol
import Synchronization
import Testing

/// Issue 14 point 5: a device farm, many daemons on one host, each on directories of its
/// own (as sextantd@INSTANCE does, docs/farm.md), must not see each other's events or
/// decisions.
@Suite("A device farm")
struct DeviceFarmTests {
    static let devices = 20
    static let fixesPerDevice = 10

    /// Device `index`'s own trace: fixes around latitude 10 + index, so that a fix from any
    /// other device's trace is told apart by its latitude alone.
    static func trace(device index: Int) -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for fix in 0..<fixesPerDevice {
            let lat = 10.0 + Double(index) + Double(fix) * 0.0001
            lines.append(#"{"t":\#(Double(fix) * 0.5),"location":{"lat":\#(lat),"lon":2.35,"hAcc":4}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func app(_ index: Int) -> String { "com.example.farm.device\(index)" }

    /// One device's run: its app granted and streaming, its trace replayed at full speed.
    /// What went wrong, if anything (the run happens on a thread of its own, where a
    /// test's expectations cannot be recorded).
    static func drive(_ daemon: DaemonHarness, device index: Int) -> [String] {
        do {
            var problems: [String] = []
            let control = try daemon.control()
            _ = try control.call(Method.permissionsSet, ["app": .string(app(index)), "status": "authorizedWhenInUse"])
            let (app, _) = try daemon.app(app(index))
            _ = try app.call(Method.locationStart)
            let path = try daemon.write("device\(index).jsonl", trace(device: index))
            _ = try control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
            let latitudes = try app.locations(fixesPerDevice).compactMap { $0["lat"]?.doubleValue }
            let own = latitudes.filter { $0 >= 10.0 + Double(index) && $0 < 10.5 + Double(index) }
            if own.count != fixesPerDevice { problems.append("device \(index) got latitudes \(latitudes)") }
            // Barrier: the answer comes after every event queued before it.
            _ = try app.call(Method.authorizationGet)
            let extra = try app.takeEvents().filter { $0.method == Event.location }
            if !extra.isEmpty { problems.append("device \(index) got \(extra.count) locations more than its trace has") }
            let apps = (try control.call(Method.appsList).arrayValue ?? []).compactMap { $0["app"]?.stringValue }
            if apps != [Self.app(index)] { problems.append("device \(index) serves \(apps)") }
            return problems
        } catch {
            return ["device \(index): \(error)"]
        }
    }

    /// Runs `body` for every index on a thread each (each blocks on its own daemon), and
    /// gathers what each returned.
    static func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T?] {
        let results = ResultSlots<T>(count)
        let finished = DispatchGroup()
        for index in 0..<count {
            finished.enter()
            Thread {
                results.set(index, body(index))
                finished.leave()
            }.start()
        }
        finished.wait()
        return results.all
    }

    @Test("20 daemons side by side on private directories, each with its own trace: each app gets its device's fixes only, each store its own decisions")
    func twentyDevices() throws {
        let started = Self.onThreads(Self.devices) { _ in ThreadHandOver(Result { try DaemonHarness() }) }
        let daemons = try started.map { try #require($0).value.get() }
        #expect(Set(daemons.map(\.runtime)).count == Self.devices)

        let farm = ThreadHandOver(daemons)
        let problems = Self.onThreads(Self.devices) { index in Self.drive(farm.value[index], device: index) }.flatMap { $0 ?? ["no result"] }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")

        for (index, daemon) in daemons.enumerated() {
            let control = try daemon.control()
            let decided = (try control.call(Method.permissionsList).arrayValue ?? []).compactMap { $0["app"]?.stringValue }
            #expect(decided == [Self.app(index)], "device \(index)'s store holds \(decided)")
            // Another device's app, granted there, is undecided here.
            let (neighbour, hello) = try daemon.app(Self.app((index + 1) % Self.devices))
            #expect(hello["authorization"]?["status"] == "notDetermined", "device \(index): \(hello.serialized())")
            neighbour.close()
        }
    }
}

/// One slot per thread, written once each, read after all have finished.
private final class ResultSlots<T: Sendable>: Sendable {
    private let slots: Mutex<[T?]>

    init(_ count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: T) { slots.withLock { $0[index] = value } }

    var all: [T?] { slots.withLock { $0 } }
}

/// A harness handed to one thread at a time: each device's daemon is used by its own
/// thread, then by the test's once every thread has finished. Unchecked: a `DaemonHarness`
/// (its process, its fake sensors) is not Sendable, and a `Mutex` cannot hand it out
/// (region checking refuses the `sending` result); the hand-over is ordered by the
/// threads' start and the `DispatchGroup`'s wait.
private struct ThreadHandOver<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
