import GRDB
import SextantCore
import SextantProtocol

/// Reads the store's rows with every column checked. A value of the wrong type (text where
/// a number belongs, a NULL) or out of range is a `StoreError` naming the table, the row
/// and the column: the daemon refuses such a store rather than guess, or trap inside GRDB.
struct StoreReader {
    let path: String
    let db: Database

    func snapshot() throws -> StoreSnapshot {
        var permissions: [String: StoredPermission] = [:]
        try forEachRow("permission", columns: ["app", "status", "accuracy", "updated_ns"]) { row in
            let app = try row.appID("app")
            guard let status = AuthorizationStatus(rawValue: try row.text("status")) else { throw row.bad("status", "not a status") }
            guard let accuracy = LocationAccuracy(rawValue: try row.text("accuracy")) else { throw row.bad("accuracy", "not full or reduced") }
            permissions[app] = StoredPermission(status: status, accuracy: accuracy, updated: Timestamp(nanoseconds: try row.integer("updated_ns")))
        }
        var settings: [String: (value: String, row: CheckedRow)] = [:]
        try forEachRow("setting", columns: ["key", "value"]) { row in
            settings[try row.text("key")] = (try row.text("value"), row)
        }
        var fudgers: [String: LocationFudger] = [:]
        try forEachRow("fudge_offset", columns: ["app", "east", "north"]) { row in
            fudgers[try row.appID("app")] = LocationFudger(offsetEast: try row.gridOffset("east"), offsetNorth: try row.gridOffset("north"))
        }
        var owners: [String: UInt32] = [:]
        try forEachRow("app_owner", columns: ["app", "uid"]) { row in
            let uid = try row.integer("uid")
            guard let owner = UInt32(exactly: uid) else { throw row.bad("uid", "\(uid) is not a uid (0...\(UInt32.max))") }
            owners[try row.appID("app")] = owner
        }
        var snapshot = StoreSnapshot(
            permissions: permissions, servicesEnabled: try Self.boolean(settings["servicesEnabled"], default: true),
            policy: try Self.policy(settings), fudgers: fudgers, owners: owners, regions: try regions(),
            timeZoneOverride: try Self.timeZone(settings["timeZone"]),
            motionPermissions: try motionPermissions(), platform: try Self.platform(settings["platform"]),
            androidPermissions: try androidPermissions())
        snapshot.iosFacets = try iosFacets()
        snapshot.motionDenials = try motionDenials()
        return snapshot
    }

    private static func platform(_ setting: (value: String, row: CheckedRow)?) throws -> DevicePlatform? {
        guard let setting else { return nil }
        guard let platform = DevicePlatform(storedValue: setting.value) else {
            throw setting.row.bad("value", "not a platform: ios, or android:API with API in \(DevicePlatform.androidAPIs)")
        }
        return platform
    }

    /// The zone set by hand (RULES Z9): a well-formed id; whether tzdata knows it is the service's to say.
    private static func timeZone(_ setting: (value: String, row: CheckedRow)?) throws -> String? {
        guard let setting else { return nil }
        guard TimeZoneID.isWellFormed(setting.value) else { throw setting.row.bad("value", TimeZoneID.problem(setting.value)) }
        return setting.value
    }

    /// Every iOS app's provisional and Always-asked facets (docs/platforms.md I2, I6).
    private func iosFacets() throws -> [String: IOSAppFacets] {
        var facets: [String: IOSAppFacets] = [:]
        try forEachRow("ios_facet", columns: ["app", "provisional", "always_asked"]) { row in
            let flags = try ["provisional", "always_asked"].map { column in
                let value = try row.integer(column)
                guard value == 0 || value == 1 else { throw row.bad(column, "not 0 or 1") }
                return value == 1
            }
            facets[try row.appID("app")] = IOSAppFacets(provisional: flags[0], alwaysAsked: flags[1])
        }
        return facets
    }

    /// Every app's Motion & Fitness status (RULES A11).
    private func motionPermissions() throws -> [String: MotionAuthorizationStatus] {
        var statuses: [String: MotionAuthorizationStatus] = [:]
        try forEachRow("motion_permission", columns: ["app", "status"]) { row in
            guard let status = MotionAuthorizationStatus(rawValue: try row.text("status")) else {
                throw row.bad("status", "not notDetermined, denied or authorized")
            }
            statuses[try row.appID("app")] = status
        }
        return statuses
    }

    /// Android's ACTIVITY_RECOGNITION denials in a row (docs/platforms.md AN42): 1 (user-set)
    /// or 2 (user-fixed), as the dialog can make them.
    private func motionDenials() throws -> [String: Int] {
        var denials: [String: Int] = [:]
        try forEachRow("motion_denial", columns: ["app", "denials"]) { row in
            let count = try row.integer("denials")
            guard (1...2).contains(count) else { throw row.bad("denials", "\(count) is not 1 (user-set) or 2 (user-fixed)") }
            denials[try row.appID("app")] = Int(count)
        }
        return denials
    }

    /// Every region, checked against the bounds `region.monitor` checks (RULES R8).
    private func regions() throws -> [StoredRegion] {
        var regions: [StoredRegion] = []
        let columns = [
            "app", "identifier", "lat", "lon", "radius", "notify_entry", "notify_exit", "loitering_delay", "notify_initial_state", "hysteresis",
        ]
        try forEachRow("region", columns: columns) { row in
            let region = CircularRegion(
                identifier: try row.text("identifier"), latitude: try row.number("lat"), longitude: try row.number("lon"),
                radius: try row.number("radius"), notifyOnEntry: try row.flag("notify_entry"), notifyOnExit: try row.flag("notify_exit"),
                loiteringDelay: try row.optionalNumber("loitering_delay"), notifyInitialState: try row.flag("notify_initial_state"),
                hysteresis: try row.optionalNumber("hysteresis"))
            if let problem = region.problem { throw row.bad(Self.regionColumn(of: problem), problem) }
            regions.append(StoredRegion(app: try row.appID("app"), region: region))
        }
        return regions
    }

    /// The column a region's problem names (its message starts with the member's name).
    private static func regionColumn(of problem: String) -> String {
        let columns = ["\"lat": "lat", "\"lon": "lon", "\"radius": "radius", "\"hysteresis": "hysteresis", "\"loiteringDelay": "loitering_delay"]
        return columns.first { problem.hasPrefix($0.key) }?.value ?? "identifier"
    }

    private static func boolean(_ setting: (value: String, row: CheckedRow)?, default value: Bool) throws -> Bool {
        guard let setting else { return value }
        switch setting.value {
        case "true": return true
        case "false": return false
        default: throw setting.row.bad("value", "\"\(setting.value)\" is not true or false")
        }
    }

    private static func policy(_ settings: [String: (value: String, row: CheckedRow)]) throws -> PromptPolicy {
        let precise = try boolean(settings["policy.precise"], default: true)
        guard let mode = settings["policy"] else { return PromptPolicy(choice: nil, precise: precise) }
        guard let policy = PromptPolicy(mode: mode.value, precise: precise) else {
            throw mode.row.bad("value", "\"\(mode.value)\" is not a prompt policy (\(PromptPolicy.validModes.joined(separator: ", ")))")
        }
        return policy
    }

    func forEachRow(_ table: String, columns: [String], _ body: (CheckedRow) throws -> Void) throws {
        let sql = "SELECT rowid, \(columns.joined(separator: ", ")) FROM \(table) ORDER BY rowid"
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let row = try cursor.next() {
            try body(CheckedRow(path: path, table: table, row: row.copy()))
        }
    }
}

/// One row, read column by column from its raw `DatabaseValue`s.
struct CheckedRow {
    let path: String
    let table: String
    let row: Row

    /// "table permission, row 3 (app "com.a"), column status: why".
    func bad(_ column: String, _ why: String) -> StoreError {
        var place = "table \(table)"
        if case .int64(let rowid) = value("rowid") { place += ", row \(rowid)" }
        if table != "setting", case .string(let app) = (row["app"] as DatabaseValue).storage { place += " (app \"\(app)\")" }
        if table == "setting", case .string(let key) = (row["key"] as DatabaseValue).storage { place += " (key \"\(key)\")" }
        return StoreError(path: path, reason: "\(place), column \(column): \(why); fix or remove the row (sqlite3), or move the file away to start afresh")
    }

    private func value(_ column: String) -> DatabaseValue.Storage { (row[column] as DatabaseValue).storage }

    private func describe(_ storage: DatabaseValue.Storage) -> String {
        switch storage {
        case .null: return "NULL"
        case .int64(let n): return "the integer \(n)"
        case .double(let d): return "the real \(d)"
        case .string(let s): return "the text \"\(s.prefix(40))\""
        case .blob(let b): return "a blob of \(b.count) bytes"
        }
    }

    func text(_ column: String) throws -> String {
        guard case .string(let text) = value(column) else { throw bad(column, "\(describe(value(column))) where text belongs") }
        return text
    }

    func integer(_ column: String) throws -> Int64 {
        guard case .int64(let number) = value(column) else { throw bad(column, "\(describe(value(column))) where an integer belongs") }
        return number
    }

    /// A finite number (an integer is one too).
    func number(_ column: String) throws -> Double {
        guard let number = try optionalNumber(column) else { throw bad(column, "NULL where a number belongs") }
        return number
    }

    func optionalNumber(_ column: String) throws -> Double? {
        let number: Double
        switch value(column) {
        case .null: return nil
        case .double(let d): number = d
        case .int64(let n): number = Double(n)
        case let other: throw bad(column, "\(describe(other)) where a number belongs")
        }
        guard number.isFinite else { throw bad(column, "\(number) is not a finite number") }
        return number
    }

    /// A boolean stored as 0 or 1.
    func flag(_ column: String) throws -> Bool {
        switch value(column) {
        case .int64(0): return false
        case .int64(1): return true
        case let other: throw bad(column, "\(describe(other)) where 0 or 1 belongs")
        }
    }

    func appID(_ column: String) throws -> String {
        let app = try text(column)
        guard AppID.isValid(app) else { throw bad(column, "\"\(app.prefix(40))\" is not an app id") }
        return app
    }

    /// A grid shift in metres: finite and within 0..<2000 (RULES L10).
    func gridOffset(_ column: String) throws -> Double {
        let metres: Double
        switch value(column) {
        case .double(let d): metres = d
        case .int64(let n): metres = Double(n)
        case let other: throw bad(column, "\(describe(other)) where a number of metres belongs")
        }
        guard metres.isFinite, metres >= 0, metres < LocationFudger.cellSize else {
            throw bad(column, "\(metres) m is outside the grid cell (0..<\(Int(LocationFudger.cellSize)) m)")
        }
        return metres
    }
}
