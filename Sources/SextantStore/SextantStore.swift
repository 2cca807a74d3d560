import Foundation
import GRDB
import SextantCore
import SextantProtocol

/// Everything the store holds, as read at start-up.
public struct StoreSnapshot: Sendable, Equatable {
    public var permissions: [String: StoredPermission]
    public var servicesEnabled: Bool
    public var policy: PromptPolicy
    public var fudgers: [String: LocationFudger]
}

/// A store that cannot be used. The daemon stops with this message; the store is never
/// reset behind the user's back.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "permission store \(path): \(reason)" }
}

/// The decisions that must survive a restart (RULES L1, L2, L10, L12), in SQLite.
///
/// WAL journal with `synchronous = FULL`: a write returns only once it is on disk, so a
/// `kill -9` (or a power cut) at any moment keeps every committed change, and a change in
/// progress is either whole or absent.
public final class SextantStore: Sendable {
    public let path: String
    private let pool: DatabasePool

    public static let fileName = "sextant.sqlite3"

    /// Opens (creating if needed) `directory/sextant.sqlite3`.
    public init(directory: String) throws(StoreError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(path: path, reason: "cannot create the directory: \(error.localizedDescription)")
        }
        var configuration = Configuration()
        configuration.label = "sextant.store"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.read { db in
                let result = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer"
                if result != "ok" { throw StoreError(path: path, reason: "integrity check failed: \(result)") }
            }
            try Self.migrator.migrate(pool)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(path: path, reason: Self.explain(error))
        } catch {
            throw StoreError(path: path, reason: "\(error)")
        }
    }

    static func explain(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_NOTADB: return "not a SQLite database (corrupt or another file): move it away to start afresh"
        case .SQLITE_CORRUPT: return "the database is corrupt: move it away to start afresh"
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return "cannot open it for reading and writing (\(error.message ?? "permission denied"))"
        default: return error.message ?? "\(error)"
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE permission (
                        app TEXT PRIMARY KEY NOT NULL,
                        status TEXT NOT NULL,
                        accuracy TEXT NOT NULL,
                        updated_ns INTEGER NOT NULL
                    );
                    CREATE TABLE setting (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    );
                    CREATE TABLE fudge_offset (
                        app TEXT PRIMARY KEY NOT NULL,
                        east REAL NOT NULL,
                        north REAL NOT NULL
                    );
                    """)
        }
        return migrator
    }

    /// Reads everything. Rows the daemon cannot understand are an error naming the row.
    public func load() throws(StoreError) -> StoreSnapshot {
        do {
            return try pool.read { db in
                var permissions: [String: StoredPermission] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT app, status, accuracy, updated_ns FROM permission") {
                    let app: String = row["app"]
                    guard let status = AuthorizationStatus(rawValue: row["status"]),
                        let accuracy = LocationAccuracy(rawValue: row["accuracy"])
                    else { throw StoreError(path: path, reason: "unreadable permission row for app \(app)") }
                    permissions[app] = StoredPermission(status: status, accuracy: accuracy, updated: Timestamp(nanoseconds: row["updated_ns"]))
                }
                var settings: [String: String] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") { settings[row["key"]] = row["value"] }
                var fudgers: [String: LocationFudger] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT app, east, north FROM fudge_offset") {
                    fudgers[row["app"]] = LocationFudger(offsetEast: row["east"], offsetNorth: row["north"])
                }
                let policy = PromptPolicy(mode: settings["policy"] ?? "ask", precise: settings["policy.precise"] != "false") ?? .ask
                return StoreSnapshot(
                    permissions: permissions, servicesEnabled: settings["servicesEnabled"] != "false", policy: policy, fudgers: fudgers)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(path: path, reason: Self.explain(error))
        } catch {
            throw StoreError(path: path, reason: "\(error)")
        }
    }

    /// Stores (or with nil, forgets) an app's decision.
    public func savePermission(app: String, _ entry: StoredPermission?) throws {
        try pool.write { db in
            if let entry {
                try db.execute(
                    sql: """
                        INSERT INTO permission (app, status, accuracy, updated_ns) VALUES (?, ?, ?, ?)
                        ON CONFLICT(app) DO UPDATE SET status = excluded.status, accuracy = excluded.accuracy,
                            updated_ns = excluded.updated_ns
                        """,
                    arguments: [app, entry.status.rawValue, entry.accuracy.rawValue, entry.updated.nanoseconds])
            } else {
                try db.execute(sql: "DELETE FROM permission WHERE app = ?", arguments: [app])
            }
        }
    }

    public func saveServicesEnabled(_ enabled: Bool) throws {
        try setSettings(["servicesEnabled": enabled ? "true" : "false"])
    }

    public func savePolicy(_ policy: PromptPolicy) throws {
        try setSettings(["policy": policy.mode, "policy.precise": policy.precise ? "true" : "false"])
    }

    public func saveFudger(app: String, _ fudger: LocationFudger) throws {
        try pool.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO fudge_offset (app, east, north) VALUES (?, ?, ?)",
                arguments: [app, fudger.offsetEast, fudger.offsetNorth])
        }
    }

    private func setSettings(_ values: [String: String]) throws {
        try pool.write { db in
            for (key, value) in values {
                try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
    }

    /// Checkpoints the WAL into the main file (at shutdown; not needed for safety).
    public func close() {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try? pool.close()
    }
}
