import Foundation
import SextantCore
import SextantProtocol

/// The tests' table (Tools/dev/tz/make-tz-table.py --test-regions: only the cells round the
/// border points) and tzfpy's answers at the points (Traces/tz/border-points.tsv), both
/// written by the generator, so that the expected answers are not the code under test's.
enum ZoneFixtures {
    static let directory = #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/tz/"

    static let tableBytes: [UInt8] = {
        guard let data = FileManager.default.contents(atPath: directory + "test-regions.sxtz") else {
            fatalError("no \(directory)test-regions.sxtz: run Tools/dev/tz/make-tz-table.py --test-regions")
        }
        return [UInt8](data)
    }()

    static let table: ZoneTable = {
        do { return try ZoneTable(bytes: tableBytes) } catch { fatalError("test table refused: \(error)") }
    }()

    /// The world table the .deb ships (Tools/dev/tz/make-tz-table.py, committed).
    static let worldBytes: [UInt8] = {
        guard let data = FileManager.default.contents(atPath: directory + "zones.sxtz") else {
            fatalError("no \(directory)zones.sxtz: run Tools/dev/tz/make-tz-table.py")
        }
        return [UInt8](data)
    }()

    static let world: ZoneTable = {
        do { return try ZoneTable(bytes: worldBytes) } catch { fatalError("world table refused: \(error)") }
    }()

    struct Point {
        var pair: String
        var kind: String
        var longitude: Double
        var latitude: Double
        var zone: String
        /// The bound the point was chosen by: "land" (100 m from a land border), "sea" (5 km
        /// from the sea's edge, rule Z1's looser bound) or "end" (a pair's hand-picked end).
        var bound: String
    }

    static let points: [Point] = {
        let text = (try? String(contentsOfFile: directory + "border-points.tsv", encoding: .ascii)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Point(pair: f[0], kind: f[1], longitude: Double(f[2])!, latitude: Double(f[3])!, zone: f[4], bound: f.count > 6 ? f[6] : "")
        }
    }()

    /// The points in the test table's regions (the others are the world table's).
    static var regionPoints: [Point] { points.filter { !$0.kind.hasPrefix("world") } }

    static func point(_ pair: String, _ kind: String) -> Point {
        guard let p = points.first(where: { $0.pair == pair && $0.kind == kind }) else {
            fatalError("no \(pair) \(kind) in border-points.tsv")
        }
        return p
    }
}

/// The system's tzdata, through Foundation (what the daemon will use).
struct SystemZoneRules: ZoneRules {
    func offset(zone: String, at instant: Timestamp) -> ZoneOffset? {
        guard let timeZone = TimeZone(identifier: zone) else { return nil }
        let date = Date(timeIntervalSince1970: instant.seconds)
        return ZoneOffset(seconds: timeZone.secondsFromGMT(for: date), isDaylightSaving: timeZone.isDaylightSavingTime(for: date))
    }
}

extension Timestamp {
    /// A UTC instant from its civil form, for readable tests.
    static func utc(_ text: String) -> Timestamp {
        guard let t = try? Timestamp.parse(rfc3339: text) else { fatalError("bad time \(text)") }
        return t
    }
}
