import Foundation
import SextantCore
import SextantProtocol
import SextantStore
import SextantTestSupport
import Testing

@Suite("SQLite store")
struct SextantStoreTests {
    /// Removed with the suite's instance at the end of the test.
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("store") }

    /// The store's directory: a directory the store makes itself, in the test's own.
    private func directory() -> String {
        scratch.file("store")
    }

    @Test("L1 L2 L12: decisions, the switch, the policy and grid offsets are read back after reopening")
    func roundTrip() throws {
        let dir = directory()
        do {
            let store = try SextantStore(directory: dir)
            let empty = try store.load()
            #expect(empty.permissions.isEmpty && empty.servicesEnabled && empty.policy == .ask)
            try store.savePermission(app: "com.a", StoredPermission(status: .authorizedAlways, accuracy: .reduced, updated: Timestamp(nanoseconds: 5)))
            try store.savePermission(app: "com.b", StoredPermission(status: .denied, accuracy: .full, updated: Timestamp(nanoseconds: 6)))
            try store.savePermission(app: "com.b", nil)
            try store.saveServicesEnabled(false)
            try store.savePolicy(PromptPolicy(choice: .allowOnce, precise: false))
            try store.saveFudger(app: "com.a", LocationFudger(offsetEast: 12.5, offsetNorth: 1999.75))
            store.close()
        }
        let reopened = try SextantStore(directory: dir).load()
        #expect(reopened.permissions == ["com.a": StoredPermission(status: .authorizedAlways, accuracy: .reduced, updated: Timestamp(nanoseconds: 5))])
        #expect(reopened.servicesEnabled == false)
        #expect(reopened.policy == PromptPolicy(choice: .allowOnce, precise: false))
        #expect(reopened.fudgers["com.a"] == LocationFudger(offsetEast: 12.5, offsetNorth: 1999.75))
    }

    @Test("A file that is not a database is an error naming it, and is left as it was")
    func corruptFile() throws {
        let dir = directory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + SextantStore.fileName
        let junk = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try junk.write(to: URL(fileURLWithPath: path))
        do {
            _ = try SextantStore(directory: dir)
            Issue.record("opened a corrupt store")
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(path))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
    }

    @Test("A row the daemon cannot read is an error, not a silent default", .requires(SQLiteShell.requirement))
    func unreadableRow() throws {
        let dir = directory()
        let store = try SextantStore(directory: dir)
        try store.savePermission(app: "com.a", StoredPermission(status: .denied, accuracy: .full, updated: Timestamp(nanoseconds: 0)))
        store.close()
        // Damage the row from outside, as another tool might.
        try SQLiteShell.run(dir + "/" + SextantStore.fileName, "UPDATE permission SET status = 'maybe'")
        #expect(throws: StoreError.self) { try SextantStore(directory: dir).load() }
    }
}
