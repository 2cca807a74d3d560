import Foundation
import SextantCore
import SextantProtocol
import SextantStore
import SextantTestSupport
import Testing

@Suite("SQLite store: Android permissions")
struct AndroidPermissionStoreTests {
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("store") }

    @Test("AN19: an app's Android grants, denials and last use are read back after reopening; nil forgets them")
    func roundTrip() throws {
        let dir = scratch.file("store")
        let used = AndroidAppPermissions(
            grants: AndroidGrants(coarse: true, fine: true, background: true), denials: 0, lastUsed: Timestamp(nanoseconds: 42),
            updated: Timestamp(nanoseconds: 7))
        let fixed = AndroidAppPermissions(denials: 2, updated: Timestamp(nanoseconds: 9))
        do {
            let store = try SextantStore(directory: dir)
            #expect(try store.load().androidPermissions.isEmpty)
            try store.write([.androidPermission(app: "com.a", used), .androidPermission(app: "com.b", fixed)])
            try store.write([.androidPermission(app: "com.c", used), .androidPermission(app: "com.c", nil)])
            store.close()
        }
        #expect(try SextantStore(directory: dir).load().androidPermissions == ["com.a": used, "com.b": fixed])
    }

    @Test("AN19: fine without coarse, or a denial count past 2, is an error naming android_permission's column", .requires(SQLiteShell.requirement))
    func unreadableRows() throws {
        for (sql, column) in [("UPDATE android_permission SET coarse = 0", "coarse"), ("UPDATE android_permission SET denials = 3", "denials")] {
            let dir = scratch.file("store-\(column)")
            let store = try SextantStore(directory: dir)
            try store.write([.androidPermission(app: "com.a", AndroidAppPermissions(grants: AndroidGrants(coarse: true, fine: true), updated: Timestamp(nanoseconds: 1)))])
            store.close()
            try SQLiteShell.run(dir + "/" + SextantStore.fileName, sql)
            let error = #expect(throws: StoreError.self) { try SextantStore(directory: dir).load() }
            #expect(error?.reason.contains("android_permission") == true && error?.reason.contains("column \(column)") == true, "\(String(describing: error))")
        }
    }
}
