import Foundation
import SextantCore
import SextantHub

/// The time zone's boundary table as the daemon loads it at start (`--time-zone-table`):
/// the path given, or the installed table when there is one; without either the zone stays
/// unknown (`status` says so). A table that cannot be read or fails its checks stops the
/// start with a message naming the file: the daemon never runs on half a table.
enum TimeZoneTableFile {
    static func settings(path given: String?, installed: String = TimeZoneSettings.installedTablePath) throws(DaemonStartError) -> TimeZoneSettings {
        var settings = TimeZoneSettings()
        let option = given != nil ? "--time-zone-table \(given!)" : "the time zone table \(installed)"
        guard let path = given ?? (FileManager.default.fileExists(atPath: installed) ? installed : nil) else { return settings }
        let bytes: [UInt8]
        do throws(TableFileProblem) { bytes = try read(path) } catch {
            throw DaemonStartError(description: "\(option): \(error.reason)")
        }
        do {
            settings.table = try ZoneTable(bytes: bytes)
        } catch {
            throw DaemonStartError(description: "\(option): not a Sextant time zone table: \(error)")
        }
        settings.tablePath = path
        return settings
    }

    /// The world table is tens of megabytes; a file far larger (or a device) is not one.
    static let largestTable = 256 << 20

    private struct TableFileProblem: Error { var reason: String }

    private static func read(_ path: String) throws(TableFileProblem) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw TableFileProblem(reason: "cannot read: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw TableFileProblem(reason: "not a regular file") }
        guard info.st_size <= largestTable else { throw TableFileProblem(reason: "\(info.st_size) bytes, more than a table's \(largestTable)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TableFileProblem(reason: "cannot read: \(String(cString: strerror(errno)))")
        }
        return [UInt8](data)
    }
}
