import Foundation
import SextantCore
import SextantProtocol
import SextantStore
import SextantTestSupport
import Testing

/// Stores damaged from outside (by hand with sqlite3, a truncation, another program's file):
/// each is refused with a message naming what is wrong, and is left as it was.
@Suite("SQLite store integrity", .requires(SQLiteShell.requirement))
struct StoreIntegrityTests {
    /// Removed with the suite's instance at the end of the test.
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("integrity") }

    /// The store's directory: the test's directory.
    private func directory() -> String {
        scratch.path
    }

    /// A store holding one row in each table, closed.
    private func populatedStore() throws -> String {
        let dir = directory()
        let store = try SextantStore(directory: dir)
        try store.write([
            .permission(app: "com.a", StoredPermission(status: .authorizedWhenInUse, accuracy: .reduced, updated: Timestamp(nanoseconds: 7))),
            .servicesEnabled(false),
            .policy(PromptPolicy(choice: .dontAllow, precise: true)),
            .gridOffset(app: "com.a", LocationFudger(offsetEast: 10, offsetNorth: 20)),
            .owner(app: "com.a", uid: 1000),
        ])
        store.close()
        return dir
    }

    @Test("L2: a 0-byte store file is refused, not taken for an empty store, and left as it was")
    func emptyFileIsRefused() throws {
        let dir = directory()
        let path = dir + "/" + SextantStore.fileName
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: StoreError.self) { try SextantStore(directory: dir) }
        #expect(error?.description.contains(path) == true)
        #expect(error?.reason.contains("empty (0 bytes)") == true, "\(error.map(String.init(describing:)) ?? "")")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
    }

    @Test("L2: a store the daemon creates itself opens empty and is a store afterwards")
    func freshStoreIsCreated() throws {
        let dir = directory()
        do {
            let store = try SextantStore(directory: dir)
            #expect(try store.load().permissions.isEmpty)
            store.close()
        }
        #expect(try SextantStore(directory: dir).load().owners.isEmpty)
    }

    @Test("A SQLite database of another program is refused")
    func foreignDatabaseIsRefused() throws {
        let dir = directory()
        let path = dir + "/" + SextantStore.fileName
        try SQLiteShell.run(path, "CREATE TABLE notes (text TEXT)")
        let error = #expect(throws: StoreError.self) { try SextantStore(directory: dir) }
        #expect(error?.reason.contains("without Sextant's tables") == true)
    }

    @Test("Every table's rows are read back, with the app ids' owners")
    func everyTableRoundTrips() throws {
        let dir = try populatedStore()
        let snapshot = try SextantStore(directory: dir).load()
        #expect(snapshot.permissions["com.a"]?.accuracy == .reduced)
        #expect(snapshot.servicesEnabled == false)
        #expect(snapshot.policy == PromptPolicy(choice: .dontAllow, precise: true))
        #expect(snapshot.fudgers["com.a"] == LocationFudger(offsetEast: 10, offsetNorth: 20))
        #expect(snapshot.owners == ["com.a": 1000])
    }

    struct Damage: Sendable, CustomStringConvertible {
        var sql: String
        /// What the error must say: the place (table, row, column) and the fault.
        var expected: [String]
        var description: String { sql }
    }

    static let damages: [Damage] = [
        Damage(sql: "UPDATE fudge_offset SET east = 'abc'", expected: ["table fudge_offset, row 1 (app \"com.a\"), column east", "the text \"abc\""]),
        Damage(sql: "UPDATE fudge_offset SET north = 1e308", expected: ["column north", "outside the grid cell"]),
        Damage(sql: "UPDATE fudge_offset SET north = -0.5", expected: ["column north", "outside the grid cell"]),
        Damage(sql: "UPDATE fudge_offset SET east = 2000", expected: ["column east", "outside the grid cell"]),
        Damage(sql: "UPDATE fudge_offset SET east = 9e999", expected: ["column east", "outside the grid cell"]),
        Damage(sql: "UPDATE permission SET updated_ns = 'soon'", expected: ["table permission, row 1 (app \"com.a\"), column updated_ns", "the text \"soon\""]),
        Damage(sql: "UPDATE permission SET updated_ns = 1.5", expected: ["column updated_ns", "the real 1.5"]),
        Damage(
            sql: """
                DROP TABLE permission;
                CREATE TABLE permission (app TEXT PRIMARY KEY, status TEXT, accuracy TEXT, updated_ns INTEGER);
                INSERT INTO permission VALUES ('com.a', 'denied', 'full', NULL);
                """,
            expected: ["table permission, row 1 (app \"com.a\"), column updated_ns", "NULL where an integer belongs"]),
        Damage(sql: "UPDATE permission SET status = 'maybe'", expected: ["column status", "not a status"]),
        Damage(sql: "UPDATE permission SET accuracy = x'00ff'", expected: ["column accuracy", "a blob of 2 bytes"]),
        Damage(sql: "UPDATE permission SET app = 'not an app id!'", expected: ["table permission", "column app", "is not an app id"]),
        Damage(sql: "UPDATE setting SET value = 'maybe' WHERE key = 'servicesEnabled'", expected: ["table setting", "(key \"servicesEnabled\"), column value", "not true or false"]),
        // TEXT affinity stores the number 1 as the text "1".
        Damage(sql: "UPDATE setting SET value = 1 WHERE key = 'servicesEnabled'", expected: ["(key \"servicesEnabled\")", "\"1\" is not true or false"]),
        Damage(sql: "UPDATE setting SET value = x'01' WHERE key = 'policy.precise'", expected: ["(key \"policy.precise\")", "a blob of 1 bytes where text belongs"]),
        Damage(sql: "UPDATE setting SET value = 'sometimes' WHERE key = 'policy'", expected: ["(key \"policy\")", "not a prompt policy"]),
        Damage(sql: "UPDATE app_owner SET uid = -1", expected: ["table app_owner, row 1 (app \"com.a\"), column uid", "is not a uid"]),
        Damage(sql: "UPDATE app_owner SET uid = 'root'", expected: ["column uid", "where an integer belongs"]),
        // RULES Z9: the zone set by hand is a zone id, never a path or an escape.
        Damage(
            sql: "INSERT INTO setting (key, value) VALUES ('timeZone', '../../etc/passwd')",
            expected: ["table setting", "(key \"timeZone\"), column value", "must be a zone id"]),
        // PF2: the platform is ios or android at a level the profile models.
        Damage(
            sql: "INSERT INTO setting (key, value) VALUES ('platform', 'android:12')",
            expected: ["table setting", "(key \"platform\"), column value", "not a platform: ios, or android:API with API in 29...36"]),
    ]

    @Test("L2 L10: a row of the wrong type or out of range is refused, naming table, row and column", arguments: damages)
    func damagedRowIsRefused(_ damage: Damage) throws {
        let dir = try populatedStore()
        let path = dir + "/" + SextantStore.fileName
        try SQLiteShell.run(path, damage.sql)
        let error = #expect(throws: StoreError.self) { try SextantStore(directory: dir).load() }
        for part in damage.expected {
            #expect(error?.description.contains(part) == true, "\(part) not in: \(error.map(String.init(describing:)) ?? "no error")")
        }
        #expect(error?.description.contains(path) == true)
    }
}

@Suite("The platform in the store")
struct StoredPlatformTests {
    @Test("PF2: the platform written is the platform read back, Android's level with it; a store without one says none")
    func platformRoundTrip() throws {
        let dir = try TemporaryDirectory("platform-store")
        let store = try SextantStore(directory: dir.path)
        #expect(try store.load().platform == nil)
        try store.write([.platform(.android(api: 31))])
        #expect(try store.load().platform == .android(api: 31))
        try store.write([.platform(.ios)])
        #expect(try store.load().platform == .ios)
        store.close()
    }
}
