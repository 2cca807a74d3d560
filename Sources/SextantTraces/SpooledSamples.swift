import SextantCore
import SextantProtocol

/// A sample as one fixed-size record of a `SpoolFile` (`SpoolFile.words` words), so that
/// a trace read in one pass can be played by index from disk (GPX, GnssLogger).
///
/// Word 0 is the offset, word 9 the flags. A location: lat, lon, alt, hAcc, vAcc, speed,
/// course, time in words 1–8, flag bits 0–3 saying which of alt, vAcc, speed and course
/// are there, bits 4–5 its recorded `simulated` (present, true). A sensor reading (flag bit 8): its values in words 1–4, its kind's packed
/// name in word 5, which values it carries (bits) in word 6. A GPS state (flag bit 9):
/// its index in `GPSSignal.allCases` in word 1. A record (flag bit 10): its words
/// (`SampleRecord.spoolWords`) in a second spool (`RecordSpool`) from word number word 1,
/// word 2 of them, its kind the spool's kind number word 3.
enum SampleWords {
    static let readingFlag: UInt64 = 1 << 8
    static let gpsFlag: UInt64 = 1 << 9
    static let recordFlag: UInt64 = 1 << 10
    /// A location whose trace says whether it was mock (bit 4), and says it was (bit 5).
    static let recordedSimulatedFlag: UInt64 = 1 << 4
    static let recordedTrueFlag: UInt64 = 1 << 5

    /// `records` takes the words of a record.
    static func words(_ sample: TraceSample, records: RecordSpool) throws(TraceError) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: SpoolFile.words)
        words[0] = UInt64(bitPattern: sample.offset)
        switch sample.value {
        case .location(let fix):
            let optionals = [fix.altitude, fix.verticalAccuracy, fix.speed, fix.course]
            for (bit, value) in optionals.enumerated() where value != nil { words[9] |= 1 << UInt64(bit) }
            if let recorded = fix.recordedSimulated { words[9] |= recorded ? recordedSimulatedFlag | recordedTrueFlag : recordedSimulatedFlag }
            words.replaceSubrange(1...8, with: [
                fix.latitude.bitPattern, fix.longitude.bitPattern, (fix.altitude ?? 0).bitPattern, fix.horizontalAccuracy.bitPattern,
                (fix.verticalAccuracy ?? 0).bitPattern, (fix.speed ?? 0).bitPattern, (fix.course ?? 0).bitPattern, UInt64(bitPattern: fix.time.nanoseconds),
            ])
        case .reading(let reading):
            words[9] = readingFlag
            words[5] = reading.kind.packedName
            for k in 0..<SensorReading.capacity {
                guard let value = reading[k] else { continue }
                words[1 + k] = value.bitPattern
                words[6] |= 1 << UInt64(k)
            }
        case .gps(let signal):
            words[9] = gpsFlag
            words[1] = UInt64(GPSSignal.allCases.firstIndex(of: signal) ?? 0)
        case .record(let record):
            let place = try records.append(record)
            words[9] = recordFlag
            words[1] = UInt64(place.first)
            words[2] = UInt64(place.count)
            words[3] = UInt64(place.kind)
        }
        return words
    }

    static func sample(_ r: ArraySlice<UInt64>, records: SpooledRecordWords) throws(TraceError) -> TraceSample {
        let w = Array(r)
        let offset = Int64(bitPattern: w[0])
        if w[9] & recordFlag != 0 {
            return TraceSample(offset: offset, value: .record(try records.record(kind: Int(w[3]), from: Int(w[1]), count: Int(w[2]))))
        }
        if w[9] & readingFlag != 0 {
            var reading = SensorReading(kind: SensorKind.ID(packedName: w[5]))
            for k in 0..<SensorReading.capacity where w[6] & (1 << UInt64(k)) != 0 { reading.set(k, Double(bitPattern: w[1 + k])) }
            return TraceSample(offset: offset, value: .reading(reading))
        }
        if w[9] & gpsFlag != 0 { return TraceSample(offset: offset, value: .gps(GPSSignal.allCases[Int(w[1]) % GPSSignal.allCases.count])) }
        func optional(_ k: Int, bit: UInt64) -> Double? { w[9] & (1 << bit) != 0 ? Double(bitPattern: w[k]) : nil }
        let fix = LocationFix(
            latitude: Double(bitPattern: w[1]), longitude: Double(bitPattern: w[2]), altitude: optional(3, bit: 0),
            horizontalAccuracy: Double(bitPattern: w[4]), verticalAccuracy: optional(5, bit: 1), speed: optional(6, bit: 2),
            course: optional(7, bit: 3), time: Timestamp(nanoseconds: Int64(bitPattern: w[8])),
            recordedSimulated: w[9] & recordedSimulatedFlag != 0 ? w[9] & recordedTrueFlag != 0 : nil)
        return TraceSample(offset: offset, value: .location(fix))
    }
}

/// Samples spooled to an unlinked temporary file, played by index a block at a time:
/// memory holds one block whatever the trace's length. Read from any thread.
public final class SpooledSampleTrace: ReplayableTrace {
    public static let blockSize = 1024

    public let start: Timestamp
    public let sampleCount: Int
    public let durationNanoseconds: Int64
    public let skipped: [String: Int]
    public var profile: DeviceProfile? { nil }
    private let samples: SpooledRecords
    private let records: SpooledRecordWords
    private let decoded = DecodedBlock()

    init(start: Timestamp, samples: SpooledRecords, records: SpooledRecordWords, durationNanoseconds: Int64, skipped: [String: Int]) {
        self.start = start
        self.samples = samples
        self.records = records
        self.sampleCount = samples.count
        self.durationNanoseconds = durationNanoseconds
        self.skipped = skipped
    }

    public func traceSample(at index: Int) throws(TraceError) -> TraceSample {
        let number = index / Self.blockSize
        return try decoded.with(number, decode: decode) { $0[index - number * Self.blockSize] }
    }

    /// Reads block `number`'s records from the spool.
    private func decode(_ number: Int) throws(TraceError) -> [TraceSample] {
        let words = try samples.read(from: number * Self.blockSize, count: Self.blockSize)
        var samples: [TraceSample] = []
        samples.reserveCapacity(words.count / SpoolFile.words)
        for first in stride(from: 0, to: words.count, by: SpoolFile.words) {
            samples.append(try SampleWords.sample(words[first..<(first + SpoolFile.words)], records: records))
        }
        return samples
    }

    public func firstIndex(atOrAfter offset: Int64) throws(TraceError) -> Int {
        var low = 0, high = sampleCount
        while low < high {
            let middle = (low + high) / 2
            if try traceSample(at: middle).offset < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
