import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
@testable import SextantTraces
import Testing

/// GnssLogger rows that cannot be read refuse the file with its path and line, however it
/// is read (issue 23.1); rows of a kind Sextant does not know are skipped and counted.
@Suite("GnssLogger bad rows")
struct GnssLoggerBadRowTests {
    static let header = """
        # Header Description:
        #
        # Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis,VerticalAccuracyMeters,MockLocation
        #
        # Accel,utcTimeMillis,elapsedRealtimeNanos,AccelXMps2,AccelYMps2,AccelZMps2
        #

        """

    func read(_ text: String) throws -> Trace {
        try Array(text.utf8).withUnsafeBufferPointer { try GnssLoggerReader.read($0, path: "x.txt") }
    }

    /// The error of every way of reading `text` from a `.txt` file.
    func errors(_ text: String) throws -> [String] {
        let scratch = try TemporaryDirectory("gnsslogger")
        let path = try scratch.write("gnss_log.txt", text)
        var messages: [String] = []
        do { _ = try TraceLoader.load(path: path) } catch { messages.append(error.description.replacingOccurrences(of: path, with: "F")) }
        do { _ = try TraceLoader.openForReplay(path: path) } catch { messages.append(error.description.replacingOccurrences(of: path, with: "F")) }
        do { _ = try TraceLoader.summarize(path: path) } catch { messages.append(error.description.replacingOccurrences(of: path, with: "F")) }
        return messages
    }

    @Test("A Fix row whose latitude is not a number: file, line and column")
    func latitudeNotANumber() throws {
        let text = Self.header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400582000,3,0\nFix,GPS,north,-122.08,10,0,4,,1699400583000,3,0\n"
        #expect(try errors(text) == Array(repeating: "F:8: latitude is not a number: \"north\"", count: 3))
    }

    @Test("A Fix row out of range, and one without a usable time")
    func outOfRangeAndNoTime() throws {
        #expect(try errors(Self.header + "Fix,GPS,97.42,-122.08,10,0,4,,1699400582000,3,0\n").first == "F:7: Fix row: lat must be within -90...90")
        #expect(try errors(Self.header + "Fix,GPS,37.42,-122.08,10,0,4,,,3,0\n").first?.hasPrefix("F:7: Fix row without its UTC time") == true)
        #expect(try errors(Self.header + "Fix,GPS,37.42,-122.08,10,0,4,,0,3,0\n").first == "F:7: Fix row with no usable UTC time (0.0 ms since 1970)")
        #expect(try errors(Self.header + "Accel,1699400582000,1,0.1,nan,9.8\n").first == "F:7: its y value is not a number: \"nan\"")
    }

    @Test("A header-less file: its first Fix row is refused, saying the header names no columns")
    func headerless() throws {
        let text = "Fix,GPS,37.42,-122.08,10,0,4,,1699400582000,3,0\n"
        let scratch = try TemporaryDirectory("gnsslogger")
        let path = try scratch.write("x.txt", "# Header Description:\n" + text)
        #expect(throws: TraceLoadError.invalid(TraceError(
            path: path, line: 2,
            reason: "a Fix row, but no header line names Fix's columns above it (a GnssLogger file starts with comment lines such as \"# Fix,Provider,LatitudeDegrees,…\")"))) {
            try TraceLoader.load(path: path)
        }
    }

    @Test("A row of an unknown kind is skipped and counted, not an error")
    func unknownKind() throws {
        let text = Self.header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400582000,3,0\nBarometer,1699400582000,1013.2\nAccel,1699400582500,1,0.1,0.2,9.8\n"
        let trace = try read(text)
        #expect(trace.samples.count == 2)
        #expect(trace.skipped == [GnssLoggerPass.unknownKind: 1])
    }

    @Test("Rows more than 10 s out of time order are refused with their line; less, they are put in order")
    func order() throws {
        let shuffled = Self.header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400583000,3,0\nFix,GPS,37.43,-122.08,10,0,4,,1699400582000,3,0\n"
        let trace = try read(shuffled)
        #expect(trace.locations.map(\.fix.latitude) == [37.43, 37.42])
        let late = Self.header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400600000,3,0\nFix,GPS,37.42,-122.08,10,0,4,,1699400620000,3,0\nFix,GPS,37.43,-122.08,10,0,4,,1699400582000,3,0\n"
        #expect(try errors(late).first?.hasPrefix("F:9: a row stamped 2023-11-07T23:43:02.000Z, more than 10 s before a row above it") == true)
    }
}
