import SextantTestSupport
import Testing

/// The sqlite3 shell, to damage a store from outside as another tool might.
enum SQLiteShell {
    static let path = "/usr/bin/sqlite3"
    static let requirement = Requirement.tool(path, package: "sqlite3")

    /// Runs `sql` on the database at `path`; a failure ends the test.
    static func run(_ database: String, _ sql: String) throws {
        let result = try SextantTestSupport.run([path, database, sql])
        try #require(result.status == 0, "sqlite3 failed on: \(sql): \(result.stderr)")
    }
}
