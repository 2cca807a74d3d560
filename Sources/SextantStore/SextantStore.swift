import Foundation
import GRDB
import SextantCore
import SextantProtocol

/// The decisions that must survive a restart (RULES L1, L2, L10, L12) and the app ids'
/// owners (docs/security.md), in SQLite.
///
/// WAL journal with `synchronous = FULL`: a write returns only once it is on disk, so a
/// `kill -9` (or a power cut) at any moment keeps every committed change, and a change in
/// progress is either whole or absent. Writes go through GRDB's one serialized writer, in
/// the order they were asked for, each batch in one transaction.
public final class SextantStore: Sendable {
    public let path: String
    private let pool: DatabasePool

    public static let fileName = "sextant.sqlite3"

    /// Opens (creating if needed) `directory/sextant.sqlite3`.
    ///
    /// A file that is there already must be a Sextant store: an empty (0-byte) file, or a
    /// database without Sextant's tables, is refused rather than silently made into an
    /// empty store (which would drop every decision).
    public init(directory: String) throws(StoreError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(path: path, reason: "cannot create the directory: \(error.localizedDescription)")
        }
        let existed = try Self.checkExistingFile(path)
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
                if existed, try !db.tableExists("grdb_migrations") {
                    throw StoreError(path: path, reason: "a SQLite database without Sextant's tables: move it away to start afresh")
                }
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

    /// Whether a store file is there already; throws for one that cannot be a store.
    private static func checkExistingFile(_ path: String) throws(StoreError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw StoreError(path: path, reason: "cannot read it: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(path: path, reason: "not a regular file: move it away")
        }
        if info.st_size == 0 {
            throw StoreError(
                path: path,
                reason: "the file is empty (0 bytes): it holds no decisions; the daemon does not start afresh on its own (remove the file to start with no stored permissions)")
        }
        return true
    }

    static func explain(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_NOTADB: return "not a SQLite database (corrupt or another file): move it away to start afresh"
        case .SQLITE_CORRUPT: return "the database is corrupt: move it away to start afresh"
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return "cannot open it for reading and writing (\(error.message ?? "permission denied"))"
        case .SQLITE_FULL: return "the disk is full"
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
        migrator.registerMigration("v2: app owners") { db in
            try db.execute(sql: "CREATE TABLE app_owner (app TEXT PRIMARY KEY NOT NULL, uid INTEGER NOT NULL)")
        }
        migrator.registerMigration("v3: regions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE region (
                        app TEXT NOT NULL,
                        identifier TEXT NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        radius REAL NOT NULL,
                        notify_entry INTEGER NOT NULL,
                        notify_exit INTEGER NOT NULL,
                        loitering_delay REAL,
                        notify_initial_state INTEGER NOT NULL,
                        hysteresis REAL,
                        PRIMARY KEY (app, identifier)
                    )
                    """)
        }
        migrator.registerMigration("v4: motion permissions") { db in
            try db.execute(sql: "CREATE TABLE motion_permission (app TEXT PRIMARY KEY NOT NULL, status TEXT NOT NULL)")
        }
        migrator.registerMigration("v5: android permissions") { db in try createAndroidPermissionTable(db) }
        migrator.registerMigration("v6: ios facets") { db in
            try db.execute(
                sql: "CREATE TABLE ios_facet (app TEXT PRIMARY KEY NOT NULL, provisional INTEGER NOT NULL, always_asked INTEGER NOT NULL)")
        }
        migrator.registerMigration("v7: motion denials") { db in
            // A denied app stored before counted one denial at start: it keeps that count.
            try db.execute(
                sql: """
                    CREATE TABLE motion_denial (app TEXT PRIMARY KEY NOT NULL, denials INTEGER NOT NULL);
                    INSERT INTO motion_denial (app, denials) SELECT app, 1 FROM motion_permission WHERE status = 'denied';
                    """)
        }
        return migrator
    }

    /// Reads everything, every column checked (StoreReader).
    public func load() throws(StoreError) -> StoreSnapshot {
        do {
            return try pool.read { db in try StoreReader(path: path, db: db).snapshot() }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(path: path, reason: Self.explain(error))
        } catch {
            throw StoreError(path: path, reason: "\(error)")
        }
    }

    // MARK: - Writing

    /// Writes a batch in one transaction and returns once it is committed.
    public func write(_ changes: [StoreChange]) throws(StoreError) {
        do {
            try pool.write { db in try Self.apply(changes, db) }
        } catch {
            throw failure(error)
        }
    }

    /// Queues a batch on GRDB's serialized writer (one transaction, after every batch queued
    /// before it) and calls `completion` once it is committed or has failed, on the writer's queue.
    public func asyncWrite(_ changes: [StoreChange], completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        pool.asyncWrite({ db in try Self.apply(changes, db) }) { [self] _, result in
            completion(result.mapError { failure($0) })
        }
    }

    private func failure(_ error: any Error) -> StoreError {
        if let error = error as? DatabaseError { return StoreError(path: path, reason: "cannot write: \(Self.explain(error))") }
        return StoreError(path: path, reason: "cannot write: \(error)")
    }

    private static func apply(_ changes: [StoreChange], _ db: Database) throws {
        for change in changes {
            switch change {
            case .permission(let app, let entry?):
                try db.execute(
                    sql: """
                        INSERT INTO permission (app, status, accuracy, updated_ns) VALUES (?, ?, ?, ?)
                        ON CONFLICT(app) DO UPDATE SET status = excluded.status, accuracy = excluded.accuracy,
                            updated_ns = excluded.updated_ns
                        """,
                    arguments: [app, entry.status.rawValue, entry.accuracy.rawValue, entry.updated.nanoseconds])
            case .permission(let app, nil):
                try db.execute(sql: "DELETE FROM permission WHERE app = ?", arguments: [app])
            case .servicesEnabled(let enabled):
                try setting(db, "servicesEnabled", enabled ? "true" : "false")
            case .policy(let policy):
                try setting(db, "policy", policy.mode)
                try setting(db, "policy.precise", policy.precise ? "true" : "false")
            case .gridOffset(let app, let fudger):
                try db.execute(
                    sql: "INSERT OR REPLACE INTO fudge_offset (app, east, north) VALUES (?, ?, ?)",
                    arguments: [app, fudger.offsetEast, fudger.offsetNorth])
            case .owner(let app, let uid?):
                try db.execute(sql: "INSERT OR REPLACE INTO app_owner (app, uid) VALUES (?, ?)", arguments: [app, Int64(uid)])
            case .owner(let app, nil):
                try db.execute(sql: "DELETE FROM app_owner WHERE app = ?", arguments: [app])
            case .region(let app, let region):
                try saveRegion(db, app, region)
            case .regionRemoved(let app, let identifier):
                try db.execute(sql: "DELETE FROM region WHERE app = ? AND identifier = ?", arguments: [app, identifier])
            case .timeZoneOverride(let zone?):
                try setting(db, "timeZone", zone)
            case .timeZoneOverride(nil):
                try db.execute(sql: "DELETE FROM setting WHERE key = 'timeZone'")
            case .motionPermission(let app, let status?):
                try db.execute(sql: "INSERT OR REPLACE INTO motion_permission (app, status) VALUES (?, ?)", arguments: [app, status.rawValue])
            case .motionPermission(let app, nil):
                try db.execute(sql: "DELETE FROM motion_permission WHERE app = ?", arguments: [app])
            case .platform(let platform):
                try setting(db, "platform", platform.storedValue)
            case .androidPermission(let app, let entry):
                try saveAndroidPermission(db, app, entry)
            case .iosFacets(let app, let facets?):
                try db.execute(
                    sql: "INSERT OR REPLACE INTO ios_facet (app, provisional, always_asked) VALUES (?, ?, ?)",
                    arguments: [app, facets.provisional ? 1 : 0, facets.alwaysAsked ? 1 : 0])
            case .iosFacets(let app, nil):
                try db.execute(sql: "DELETE FROM ios_facet WHERE app = ?", arguments: [app])
            case .motionDenials(let app, let denials?):
                try db.execute(sql: "INSERT OR REPLACE INTO motion_denial (app, denials) VALUES (?, ?)", arguments: [app, denials])
            case .motionDenials(let app, nil):
                try db.execute(sql: "DELETE FROM motion_denial WHERE app = ?", arguments: [app])
            }
        }
    }

    /// An upsert: a replaced region keeps its row, so its place in the app's order.
    private static func saveRegion(_ db: Database, _ app: String, _ region: CircularRegion) throws {
        try db.execute(
            sql: """
                INSERT INTO region (app, identifier, lat, lon, radius, notify_entry, notify_exit, loitering_delay,
                    notify_initial_state, hysteresis) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(app, identifier) DO UPDATE SET lat = excluded.lat, lon = excluded.lon, radius = excluded.radius,
                    notify_entry = excluded.notify_entry, notify_exit = excluded.notify_exit,
                    loitering_delay = excluded.loitering_delay, notify_initial_state = excluded.notify_initial_state,
                    hysteresis = excluded.hysteresis
                """,
            arguments: [
                app, region.identifier, region.latitude, region.longitude, region.radius, region.notifyOnEntry, region.notifyOnExit,
                region.loiteringDelay, region.notifyInitialState, region.hysteresis,
            ])
    }

    private static func setting(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    /// Stores (or with nil, forgets) an app's decision.
    public func savePermission(app: String, _ entry: StoredPermission?) throws {
        try write([.permission(app: app, entry)])
    }

    public func saveServicesEnabled(_ enabled: Bool) throws {
        try write([.servicesEnabled(enabled)])
    }

    public func savePolicy(_ policy: PromptPolicy) throws {
        try write([.policy(policy)])
    }

    public func saveFudger(app: String, _ fudger: LocationFudger) throws {
        try write([.gridOffset(app: app, fudger)])
    }

    /// Checkpoints the WAL into the main file (at shutdown; not needed for safety).
    public func close() {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try? pool.close()
    }
}
