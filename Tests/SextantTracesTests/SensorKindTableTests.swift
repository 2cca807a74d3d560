import SextantCore
import SextantProtocol
import Testing

@_spi(Fuzzing) @testable import SextantTraces

/// A sensor kind's table entry drives the JSONL reader, its fast path and the writer: a
/// kind declared here, and registered nowhere in Sextant, travels through them all once a
/// table holding it is handed in.
@Suite("Sensor kinds: a kind's table entry drives the JSONL reader, fast path and writer")
struct SensorKindTableTests {
    static let start = Timestamp(rfc3339: "2026-03-01T08:00:00Z")!

    /// A barometer, with an optional temperature: not a kind of Sextant's.
    static let barometer = SensorKind(
        name: "baro", noun: "pressure", topic: "weather",
        fields: [
            SensorField(name: "hPa", unit: "hPa", bounds: 300...1100, problem: "baro.hPa must be within 300...1100 hPa"),
            SensorField(name: "temp", unit: "°C", bounds: -60...90, isRequired: false, problem: "baro.temp must be within -60...90 °C"),
        ])
    static let sensors = SensorKinds.all.adding([barometer])

    static func fast(_ line: String, sensors: SensorKindTable = sensors) -> TraceSample? {
        var line = line
        return line.withUTF8 { SampleLineFastPath.read($0, start: start, sensors: sensors) }
    }

    static func read(_ lines: [String], sensors: SensorKindTable = sensors) throws(TraceError) -> Trace {
        let header = SextantTraceFormat.header(start: start, profile: nil)
        return try SextantTraceFormat.read(([header] + lines).joined(separator: "\n") + "\n", path: "baro.jsonl", sensors: sensors)
    }

    @Test("Its lines read through the fast path and the general parser alike, and write back as read")
    func roundTrip() throws {
        let lines = [
            #"{"t":0.5,"baro":{"hPa":1013.25,"temp":21.5}}"#, #"{"t":1,"baro":{"hPa":990}}"#,
            #"{"t":1.5, "baro": {"temp": null, "hPa": 1000.5}}"#, #"{"t":2,"accel":{"x":0,"y":9.81,"z":0}}"#,
        ]
        var withTemperature = SensorReading(kind: Self.barometer.id)
        withTemperature.set(0, 1013.25)
        withTemperature.set(1, 21.5)
        var without = SensorReading(kind: Self.barometer.id)
        without.set(0, 990)
        var third = SensorReading(kind: Self.barometer.id)
        third.set(0, 1000.5)
        let expected: [SampleValue] = [.reading(withTemperature), .reading(without), .reading(third), .acceleration(Acceleration(x: 0, y: 9.81, z: 0))]

        let trace = try Self.read(lines)
        #expect(trace.samples.map(\.value) == expected)
        for (line, value) in zip(lines, expected) {
            #expect(Self.fast(line)?.value == value, "the fast path reads \(line)")
            #expect(Array(line.utf8).withUnsafeBufferPointer { SextantTraceFormat.fastPathAgrees($0, start: Self.start, sensors: Self.sensors) })
        }
        let written = SextantTraceFormat.write(trace, sensors: Self.sensors)
        #expect(written.contains(#"{"t":0.5,"baro":{"hPa":1013.25,"temp":21.5}}"#), "\(written)")
        #expect(written.contains(#"{"t":1,"baro":{"hPa":990}}"#), "\(written)")
        let again = try SextantTraceFormat.read(written, path: "again.jsonl", sensors: Self.sensors)
        #expect(again.samples == trace.samples)
    }

    @Test("Its bounds and required fields refuse a line with its own messages, on either path")
    func refusals() {
        let refused = [
            (#"{"t":1,"baro":{"hPa":1200}}"#, "baro.hPa must be within 300...1100 hPa"),
            (#"{"t":1,"baro":{"hPa":1000,"temp":95}}"#, "baro.temp must be within -60...90 °C"),
            (#"{"t":1,"baro":{"temp":20}}"#, "baro.hPa is required"),
            (#"{"t":1,"baro":{"hPa":"high"}}"#, "baro.hPa must be a number"),
        ]
        for (line, reason) in refused {
            #expect(Self.fast(line) == nil, "\(line)")
            do {
                _ = try Self.read([line])
                Issue.record("read \(line)")
            } catch {
                #expect(error.reason == reason, "\(line)")
            }
        }
    }

    @Test("Without the kind in its table, the reader refuses its lines and names the kinds it knows")
    func unknownWithoutTable() {
        #expect(Self.fast(#"{"t":1,"baro":{"hPa":1000}}"#, sensors: SensorKinds.all) == nil)
        do {
            _ = try Self.read([#"{"t":1,"baro":{"hPa":1000}}"#], sensors: SensorKinds.all)
            Issue.record("read a kind not in the table")
        } catch {
            #expect(error.reason == "no sample: expected one of location, accel, hinge, magnet, compass, light, prox, pressure, gyro, gps, sky, activity")
        }
    }
}
