import Foundation
import SextantProtocol
import SextantStore
import SextantTestSupport
import Testing

@Suite("SQLite store: Motion & Fitness")
struct MotionPermissionStoreTests {
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("store") }

    @Test("A11: an app's Motion & Fitness status is read back after reopening; nil forgets it; a bad status is refused naming the column")
    func roundTrip() throws {
        let dir = scratch.file("store")
        do {
            let store = try SextantStore(directory: dir)
            #expect(try store.load().motionPermissions.isEmpty)
            try store.write([.motionPermission(app: "com.a", .authorized), .motionPermission(app: "com.b", .denied)])
            try store.write([.motionPermission(app: "com.c", .authorized), .motionPermission(app: "com.c", nil)])
            store.close()
        }
        #expect(try SextantStore(directory: dir).load().motionPermissions == ["com.a": .authorized, "com.b": .denied])
    }

    @Test("A11: a status the daemon cannot read is an error naming motion_permission.status", .requires(SQLiteShell.requirement))
    func unreadableStatus() throws {
        let dir = scratch.file("store")
        let store = try SextantStore(directory: dir)
        try store.write([.motionPermission(app: "com.a", .authorized)])
        store.close()
        try SQLiteShell.run(dir + "/" + SextantStore.fileName, "UPDATE motion_permission SET status = 'maybe'")
        let error = #expect(throws: StoreError.self) { try SextantStore(directory: dir).load() }
        #expect(error?.reason.contains("status") == true)
    }
}
