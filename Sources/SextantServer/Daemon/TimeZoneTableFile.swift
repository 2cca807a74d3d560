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
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw DaemonStartError(description: "\(option): cannot read: \(Self.reason(error))")
        }
        do {
            settings.table = try ZoneTable(bytes: bytes)
        } catch {
            throw DaemonStartError(description: "\(option): not a Sextant time zone table: \(error)")
        }
        settings.tablePath = path
        return settings
    }

    private static func reason(_ error: any Error) -> String {
        guard let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
              let text = strerror(Int32(underlying.code)) else { return error.localizedDescription }
        return String(cString: text)
    }
}
