import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
@testable import SextantTraces
import Testing

/// GnssLogger's `MockLocation` column as the fix's recorded simulated flag (RULES N7;
/// sextant-trace(5) "Fixes"), however the file is read.
@Suite("GnssLogger MockLocation (N7)")
struct GnssLoggerMockLocationTests {
    static let repository = #filePath.components(separatedBy: "/Tests/")[0]

    /// The fixes of every way of reading `text` from a `.txt` file: loaded whole, and
    /// opened for a replay (spooled, a block at a time).
    func fixes(_ text: String, provider: GnssProvider = .automatic) throws -> [[LocationFix]] {
        let scratch = try TemporaryDirectory("gnsslogger-mock")
        let path = try scratch.write("gnss_log.txt", text)
        let options = TraceLoadOptions(gnssProvider: provider)
        let whole = try TraceLoader.load(path: path, options: options).samples
        let replay = try TraceLoader.openForReplay(path: path, options: options)
        let played = try (0..<replay.sampleCount).map { try replay.traceSample(at: $0) }
        return [whole, played].map { $0.compactMap { if case .location(let fix) = $0.value { return fix } else { return nil } } }
    }

    @Test("N7: MockLocation 1 and 0 are the fix's recorded flag, true and false; an empty field and a file without the column say nothing")
    func handWritten() throws {
        let text = GnssLoggerBadRowTests.header + """
            Fix,GPS,37.42,-122.08,10,0,4,,1699400582000,3,1
            Fix,GPS,37.43,-122.08,10,0,4,,1699400583000,3,0
            Fix,GPS,37.44,-122.08,10,0,4,,1699400584000,3,

            """
        for read in try fixes(text) {
            #expect(read.map(\.recordedSimulated) == [true, false, nil])
        }
        let old = "# Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs\nFix,gps,37.42,-122.08,10,0,4,1471902355999\n"
        for read in try fixes(old) { #expect(read.map(\.recordedSimulated) == [nil]) }
    }

    @Test("N7: a MockLocation that is not 0 or 1 refuses the file at its line")
    func badValue() throws {
        let text = GnssLoggerBadRowTests.header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400582000,3,yes\n"
        #expect(try GnssLoggerBadRowTests().errors(text) == Array(repeating: "F:7: Fix row: MockLocation must be 0 or 1, not \"yes\"", count: 3))
    }

    @Test("N7: the Pixel 7 recording's 94 GPS fixes all say MockLocation 0 (awk -F, '$1==\"Fix\"{print $2, $14}'); its FLP ones too, played with --gnss-provider flp")
    func pixel7() throws {
        let text = try String(contentsOfFile: Self.repository + "/Traces/gnsslogger/pixel7-2023-stanford.txt", encoding: .utf8)
        for read in try fixes(text) {
            #expect(read.count == 94 && read.allSatisfy { $0.recordedSimulated == false })
        }
        for read in try fixes(text, provider: .flp) {
            #expect(read.count == 95 && read.allSatisfy { $0.recordedSimulated == false })
        }
    }
}
