import GRDB
import SextantCore
import SextantProtocol

// The `android_permission` table (docs/platforms.md AN19): an Android phone's grants and
// flags per app. The one-time grant is never stored (AN12).

extension SextantStore {
    static func createAndroidPermissionTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE android_permission (
                    app TEXT PRIMARY KEY NOT NULL,
                    coarse INTEGER NOT NULL,
                    fine INTEGER NOT NULL,
                    background INTEGER NOT NULL,
                    denials INTEGER NOT NULL,
                    last_used_ns INTEGER,
                    updated_ns INTEGER NOT NULL
                )
                """)
    }

    static func saveAndroidPermission(_ db: Database, _ app: String, _ entry: AndroidAppPermissions?) throws {
        guard let entry else {
            try db.execute(sql: "DELETE FROM android_permission WHERE app = ?", arguments: [app])
            return
        }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO android_permission (app, coarse, fine, background, denials, last_used_ns, updated_ns)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                app, entry.grants.coarse, entry.grants.fine, entry.grants.background, entry.denials, entry.lastUsed?.nanoseconds,
                entry.updated.nanoseconds,
            ])
    }
}

extension StoreReader {
    /// Every app's Android permissions, each column checked.
    func androidPermissions() throws -> [String: AndroidAppPermissions] {
        var entries: [String: AndroidAppPermissions] = [:]
        let columns = ["app", "coarse", "fine", "background", "denials", "last_used_ns", "updated_ns"]
        try forEachRow("android_permission", columns: columns) { row in
            let grants = AndroidGrants(coarse: try row.flag("coarse"), fine: try row.flag("fine"), background: try row.flag("background"))
            if grants.fine && !grants.coarse { throw row.bad("coarse", "fine is granted without coarse") }
            if grants.background && !grants.coarse { throw row.bad("background", "background is granted without coarse") }
            let denials = try row.integer("denials")
            guard (0...2).contains(denials) else { throw row.bad("denials", "\(denials) is not 0, 1 (user-set) or 2 (user-fixed)") }
            let lastUsed = row.isNull("last_used_ns") ? nil : Timestamp(nanoseconds: try row.integer("last_used_ns"))
            entries[try row.appID("app")] = AndroidAppPermissions(
                grants: grants, denials: Int(denials), lastUsed: lastUsed, updated: Timestamp(nanoseconds: try row.integer("updated_ns")))
        }
        return entries
    }
}

extension CheckedRow {
    func isNull(_ column: String) -> Bool { (row[column] as DatabaseValue).isNull }
}
