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

    @Test("issue 21.1: a Mag row past ±5000 µT and an OrientationDeg row whose yaw is not a heading: file, line and reason")
    func headingRows() throws {
        let header = "# Header Description:\n# Mag,utcTimeMillis,elapsedRealtimeNanos,MagXMicroT,MagYMicroT,MagZMicroT\n# OrientationDeg,utcTimeMillis,elapsedRealtimeNanos,yawDeg,rollDeg,pitchDeg\n"
        #expect(try errors(header + "Mag,1699400582000,1,20.5,6000,-40\n").first == "F:4: Mag row: magnet: y must be a number within ±5000 µT")
        #expect(try errors(header + "OrientationDeg,1699400582000,1,361.0,0.0,0.0\n").first == "F:4: OrientationDeg row: yawDeg must be within 0...360 degrees, not 361.0")
        #expect(try errors(header + "OrientationDeg,1699400582000,1,,0.0,0.0\n").first == "F:4: OrientationDeg row without yawDeg")
        #expect(try errors("# Fix,Provider,LatitudeDegrees\nOrientationDeg,1699400582000,1,90.0,0.0,0.0\n").first?.hasPrefix("F:2: an OrientationDeg row, but no header") == true)
        let trace = try read(header + "OrientationDeg,1699400582000,1,360.0,0.0,0.0\nMag,1699400582000,1,20.5,6.0,-40\n")
        #expect(trace.samples.map(\.value) == [.compass(CompassReading(magnetic: 0)), .magneticField(MagneticField(x: 20.5, y: 6, z: -40))])
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

    @Test("Rows less than 10 s out of time order are put in order (more: GnssLoggerLateRowTests)")
    func order() throws {
        let shuffled = Self.header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400583000,3,0\nFix,GPS,37.43,-122.08,10,0,4,,1699400582000,3,0\n"
        let trace = try read(shuffled)
        #expect(trace.locations.map(\.fix.latitude) == [37.43, 37.42])
    }
}
