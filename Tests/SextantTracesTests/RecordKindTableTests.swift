import SextantCore
import SextantProtocol
import Testing

@testable import SextantTraces

/// A Wi-Fi scan: a record kind declared here and registered nowhere in Sextant (issue 37.3).
/// Its declaration is all it takes to travel through the JSONL reader and writer and the
/// replay's spool: nothing in `SextantTraces` names it.
struct WifiScan: RecordValue {
    struct AccessPoint: Equatable {
        /// The MAC address's 48 bits.
        var bssid: UInt64
        /// dBm.
        var rssi: Int
        /// MHz.
        var frequency: Int
    }

    var accessPoints: [AccessPoint]

    static let kind = RecordKind(name: "wifi", of: WifiScan.self)
    static var recordKind: RecordKind { kind }

    var recordBody: JSONValue {
        ["aps": .array(accessPoints.map { ["bssid": .int(Int64($0.bssid)), "rssi": .int(Int64($0.rssi)), "freq": .int(Int64($0.frequency))] })]
    }

    static func read(recordBody: JSONValue) -> Result<WifiScan, RecordProblem> {
        guard case .object(let o) = recordBody, case .array(let list)? = o["aps"] else { return .failure(RecordProblem("wifi.aps must be an array")) }
        var accessPoints: [AccessPoint] = []
        for (index, item) in list.enumerated() {
            guard let bssid = item["bssid"]?.intValue, (0..<(1 << 48)).contains(bssid) else {
                return .failure(RecordProblem("wifi.aps[\(index)].bssid must be a 48-bit integer"))
            }
            guard let rssi = item["rssi"]?.intValue, (-120...0).contains(rssi) else {
                return .failure(RecordProblem("wifi.aps[\(index)].rssi must be within -120...0 dBm"))
            }
            guard let frequency = item["freq"]?.intValue, (2400...7200).contains(frequency) else {
                return .failure(RecordProblem("wifi.aps[\(index)].freq must be within 2400...7200 MHz"))
            }
            accessPoints.append(AccessPoint(bssid: UInt64(bssid), rssi: Int(rssi), frequency: Int(frequency)))
        }
        return .success(WifiScan(accessPoints: accessPoints))
    }

    /// An access point a word: bssid in bits 0–47, rssi + 128 in 48–55; the frequency in a
    /// word of its own, so that a scan's words are not a multiple of a spool record's.
    var spoolWords: [UInt64] {
        accessPoints.flatMap { [$0.bssid | UInt64($0.rssi + 128) << 48, UInt64($0.frequency)] }
    }

    init(accessPoints: [AccessPoint]) { self.accessPoints = accessPoints }

    init(spoolWords: ArraySlice<UInt64>) {
        let words = Array(spoolWords)
        accessPoints = stride(from: 0, to: words.count - 1, by: 2).map { k in
            AccessPoint(bssid: words[k] & 0xFFFF_FFFF_FFFF, rssi: Int(words[k] >> 48 & 0xFF) - 128, frequency: Int(words[k + 1]))
        }
    }
}

@Suite("Record kinds: a kind's declaration drives the JSONL reader and writer and the spool (issue 37.3)")
struct RecordKindTableTests {
    static let start = Timestamp(rfc3339: "2026-03-01T08:00:00Z")!
    static let records = RecordKinds.all.adding([WifiScan.kind])

    static let scan = WifiScan(accessPoints: [
        .init(bssid: 0x0011_2233_4455, rssi: -48, frequency: 2412),
        .init(bssid: 0xA0B1_C2D3_E4F5, rssi: -81, frequency: 5180),
    ])
    /// Seven access points: fourteen words, more than a spool record holds.
    static let bigScan = WifiScan(accessPoints: (0..<7).map { .init(bssid: UInt64($0) << 40 | 0xBEEF, rssi: -30 - $0, frequency: 5745 + 20 * $0) })
    static let sky = SkyView(satellites: [SatelliteInView(constellation: .galileo, svid: 4, elevation: 22.5, azimuth: 181, cn0: 33, used: true)])

    static func read(_ lines: [String], records: RecordKindTable = records) throws(TraceError) -> Trace {
        let header = SextantTraceFormat.header(start: start, profile: nil)
        return try SextantTraceFormat.read(([header] + lines).joined(separator: "\n") + "\n", path: "wifi.jsonl", records: records)
    }

    @Test("A wifi line reads through the general parser and writes back byte for byte, beside a sky and a reading")
    func jsonlRoundTrip() throws {
        let lines = [
            #"{"t":0.5,"wifi":{"aps":[{"bssid":73588229205,"freq":2412,"rssi":-48},{"bssid":176685338322165,"freq":5180,"rssi":-81}]}}"#,
            #"{"t":1,"sky":{"inView":1,"satellites":[{"az":181,"cn0":33,"constellation":"galileo","el":22.5,"prn":304,"svid":4,"used":true}],"used":1}}"#,
            #"{"t":1.5,"wifi":{"aps":[]}}"#,
            #"{"t":2,"accel":{"x":0,"y":9.81,"z":0}}"#,
        ]
        let expected: [SampleValue] = [
            .record(SampleRecord(Self.scan)), .sky(Self.sky), .record(SampleRecord(WifiScan(accessPoints: []))),
            .acceleration(Acceleration(x: 0, y: 9.81, z: 0)),
        ]
        let trace = try Self.read(lines)
        #expect(trace.samples.map(\.value) == expected)
        #expect(trace.samples.first?.value.kindName == "wifi")
        let written = SextantTraceFormat.write(trace)
        let header = SextantTraceFormat.header(start: Self.start, profile: nil)
        #expect(written == ([header] + lines).joined(separator: "\n") + "\n")
        #expect(try SextantTraceFormat.read(written, path: "again.jsonl", records: Self.records).samples == trace.samples)
    }

    @Test("A bad wifi line is refused with its kind's own message and its line; without the kind, the reader names the kinds it knows")
    func refusals() {
        #expect(throws: TraceError(path: "wifi.jsonl", line: 3, reason: "wifi.aps[0].rssi must be within -120...0 dBm")) {
            try Self.read([#"{"t":1,"wifi":{"aps":[]}}"#, #"{"t":2,"wifi":{"aps":[{"bssid":1,"rssi":5,"freq":2412}]}}"#])
        }
        #expect(throws: TraceError(path: "wifi.jsonl", line: 2, reason: "\"wifi\" must be an object")) { try Self.read([#"{"t":1,"wifi":[]}"#]) }
        #expect(throws: TraceError(path: "wifi.jsonl", line: 2, reason: "one sample a line, got sky and wifi")) {
            try Self.read([#"{"t":1,"sky":{"satellites":[]},"wifi":{"aps":[]}}"#])
        }
        let unknown = "no sample: expected one of location, accel, hinge, magnet, compass, light, prox, pressure, gyro, gps, sky, activity"
        #expect(throws: TraceError(path: "wifi.jsonl", line: 2, reason: unknown)) {
            try Self.read([#"{"t":1,"wifi":{"aps":[]}}"#], records: RecordKinds.all)
        }
        #expect(throws: TraceError(path: "wifi.jsonl", line: 2, reason: unknown + ", wifi")) { try Self.read([#"{"t":1,"nothing":{}}"#]) }
    }

    @Test("Wifi scans and skies are spooled and played back from disk as they were, across the spool's records")
    func spoolRoundTrip() throws {
        let fix = LocationFix(latitude: 48.85, longitude: 2.29, horizontalAccuracy: 4, time: Self.start)
        let samples: [TraceSample] = [
            TraceSample(offset: 0, value: .location(fix)),
            TraceSample(offset: 1, value: .record(SampleRecord(Self.scan))),
            TraceSample(offset: 2, value: .sky(Self.sky)),
            TraceSample(offset: 3, value: .record(SampleRecord(Self.bigScan))),
            TraceSample(offset: 4, value: .record(SampleRecord(WifiScan(accessPoints: [])))),
            TraceSample(offset: 5, value: .sky(SkyView(satellites: []))),
            TraceSample(offset: 6, value: .record(SampleRecord(Self.scan))),
            TraceSample(offset: 7, value: .gps(.lost)),
        ]
        let spool = try SampleSpool(for: "wifi.gpx")
        for sample in samples { try spool.append(sample) }
        let played = try spool.sealed(start: Self.start, durationNanoseconds: 7, skipped: [:])
        #expect(played.sampleCount == samples.count)
        #expect(try (0..<played.sampleCount).map { index throws(TraceError) in try played.traceSample(at: index) } == samples)
    }
}
