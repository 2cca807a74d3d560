import Foundation
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// An iOS app suspended while its activity changed hears the latest update when it
/// resumes (docs/platforms.md I16), in process.
@Suite("Core Motion's latest activity on resume, in process (I16)", .timeLimit(.minutes(1)))
struct MotionResumeHubTests {
    static let app = "com.example.fit"

    @Test("I16: a suspended iOS app misses two activity changes; back in the foreground it gets the latest one, once; a resume with nothing missed gets nothing")
    func latestActivityOnResumeI16() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.motionPermissionsSet, ["app": .string(Self.app), "status": "authorized"])
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await app.call(Method.activityStart)
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        _ = try await control.call(Method.activitySet, ["activity": "walking"])
        _ = try await control.call(Method.activitySet, ["activity": "automotive"])
        #expect(try await app.drainEvents().filter { $0.method == Event.activity }.isEmpty, "suspended: nothing (I15)")
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "foreground"])
        let resumed = try await app.drainEvents().filter { $0.method == Event.activity }.map(\.params)
        #expect(resumed.map { $0["types"] } == [["automotive"]], "the latest update, once: \(resumed)")
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "foreground"])
        #expect(try await app.drainEvents().filter { $0.method == Event.activity }.isEmpty, "nothing missed, nothing handed")
    }
}
