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

    @Test("AN42: Android's ACTIVITY_RECOGNITION denials are read back after reopening; nil forgets them")
    func denialsRoundTripAN42() throws {
        let dir = scratch.file("store")
        do {
            let store = try SextantStore(directory: dir)
            try store.write([.motionPermission(app: "com.a", .denied), .motionDenials(app: "com.a", 2)])
            try store.write([.motionDenials(app: "com.b", 1), .motionDenials(app: "com.b", nil)])
            store.close()
        }
        #expect(try SextantStore(directory: dir).load().motionDenials == ["com.a": 2])
    }

    @Test("AN42: a store from before v7 counts each denied app's one denial; a count the daemon cannot read names motion_denial.denials",
          .requires(SQLiteShell.requirement))
    func denialsMigrationAN42() throws {
        let dir = scratch.file("store")
        let store = try SextantStore(directory: dir)
        try store.write([.motionPermission(app: "com.a", .denied), .motionPermission(app: "com.b", .authorized)])
        store.close()
        let file = dir + "/" + SextantStore.fileName
        try SQLiteShell.run(file, "DROP TABLE motion_denial; DELETE FROM grdb_migrations WHERE identifier = 'v7: motion denials'")
        #expect(try SextantStore(directory: dir).load().motionDenials == ["com.a": 1])
        try SQLiteShell.run(file, "UPDATE motion_denial SET denials = 3")
        let error = #expect(throws: StoreError.self) { try SextantStore(directory: dir).load() }
        #expect(error?.reason.contains("denials") == true, "\(String(describing: error))")
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
