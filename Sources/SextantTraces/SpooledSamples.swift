import SextantCore
import SextantProtocol

/// A sample as one fixed-size record of a `SpoolFile` (`SpoolFile.words` words), so that
/// a trace read in one pass can be played by index from disk (GPX, GnssLogger).
///
/// Word 0 is the offset, word 9 the flags. A location: lat, lon, alt, hAcc, vAcc, speed,
/// course, time in words 1–8, flag bits 0–3 saying which of alt, vAcc, speed and course
/// are there, bits 4–5 its recorded `simulated` (present, true). A sensor reading (flag bit 8): its values in words 1–4, its kind's packed
/// name in word 5, which values it carries (bits) in word 6. A GPS state (flag bit 9):
/// its index in `GPSSignal.allCases` in word 1. A sky (flag bit 10): its satellites, one
/// word each (`SatelliteWord`), in a second spool from word number word 1, word 2 of them.
enum SampleRecord {
    static let readingFlag: UInt64 = 1 << 8
    static let gpsFlag: UInt64 = 1 << 9
    static let skyFlag: UInt64 = 1 << 10
    /// A location whose trace says whether it was mock (bit 4), and says it was (bit 5).
    static let recordedSimulatedFlag: UInt64 = 1 << 4
    static let recordedTrueFlag: UInt64 = 1 << 5

    /// `skies` holds the satellites of a sky (nil where a format has none: GPX).
    static func record(_ sample: TraceSample, skies: SkySpool? = nil) throws(TraceError) -> [UInt64] {
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
        case .sky(let sky):
            guard let skies else { preconditionFailure("a sky spooled without a spool for its satellites") }
            words[9] = skyFlag
            words[1] = UInt64(skies.count)
            words[2] = UInt64(sky.satellites.count)
            try skies.append(sky.satellites.map(SatelliteWord.pack))
        }
        return words
    }

    static func sample(_ r: ArraySlice<UInt64>, skies: SpooledSkies? = nil) throws(TraceError) -> TraceSample {
        let w = Array(r)
        let offset = Int64(bitPattern: w[0])
        if w[9] & skyFlag != 0, let skies {
            return TraceSample(offset: offset, value: .sky(SkyView(satellites: try skies.read(from: Int(w[1]), count: Int(w[2])))))
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
    private let skies: SpooledSkies?
    private let decoded = DecodedBlock()

    init(start: Timestamp, samples: SpooledRecords, skies: SpooledSkies? = nil, durationNanoseconds: Int64, skipped: [String: Int]) {
        self.start = start
        self.samples = samples
        self.skies = skies
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
            samples.append(try SampleRecord.sample(words[first..<(first + SpoolFile.words)], skies: skies))
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

/// One satellite in one word: constellation (bits 0–2), svid (3–10), elevation in tenths
/// of a degree plus 900 (11–21) with bit 22 saying it is there, azimuth in tenths (23–34)
/// with bit 35, C/N0 in tenths of a dB-Hz (36–45), used (46). Tenths are what gpsd and
/// GnssLogger's own figures carry that matters.
enum SatelliteWord {
    static func pack(_ s: SatelliteInView) -> UInt64 {
        var word = UInt64(s.constellation.rawValue) | UInt64(s.svid & 0xFF) << 3
        if let el = s.elevation { word |= UInt64((el * 10).rounded() + 900) << 11 | 1 << 22 }
        if let az = s.azimuth { word |= UInt64(min(3599, (az * 10).rounded())) << 23 | 1 << 35 }
        word |= UInt64(min(1023, (s.cn0 * 10).rounded())) << 36
        if s.used { word |= 1 << 46 }
        return word
    }

    static func unpack(_ w: UInt64) -> SatelliteInView {
        SatelliteInView(
            constellation: Constellation(rawValue: Int(w & 7)) ?? .gps, svid: Int(w >> 3 & 0xFF),
            elevation: w & 1 << 22 != 0 ? (Double(w >> 11 & 0x7FF) - 900) / 10 : nil,
            azimuth: w & 1 << 35 != 0 ? Double(w >> 23 & 0xFFF) / 10 : nil,
            cn0: Double(w >> 36 & 0x3FF) / 10, used: w & 1 << 46 != 0)
    }
}

/// The satellites of a trace's skies, a word each, written as the samples are spooled:
/// records of `SpoolFile.words` satellites.
final class SkySpool {
    private let file: SpoolFile
    private var partial: [UInt64] = []
    /// Satellites appended.
    private(set) var count = 0

    init(for path: String) throws(TraceError) { file = try SpoolFile(for: path) }

    func append(_ words: [UInt64]) throws(TraceError) {
        partial.append(contentsOf: words)
        count += words.count
        while partial.count >= SpoolFile.words {
            try file.append(Array(partial.prefix(SpoolFile.words)))
            partial.removeFirst(SpoolFile.words)
        }
    }

    func sealed() throws(TraceError) -> SpooledSkies {
        if !partial.isEmpty { try file.append(partial + [UInt64](repeating: 0, count: SpoolFile.words - partial.count)) }
        partial.removeAll()
        return SpooledSkies(records: try file.sealed())
    }
}

/// The satellites `SkySpool` wrote, read back by their number.
final class SpooledSkies: Sendable {
    private let records: SpooledRecords

    init(records: SpooledRecords) { self.records = records }

    func read(from first: Int, count: Int) throws(TraceError) -> [SatelliteInView] {
        guard count > 0 else { return [] }
        let record = first / SpoolFile.words
        let last = (first + count - 1) / SpoolFile.words
        let words = try records.read(from: record, count: last - record + 1)
        let start = first - record * SpoolFile.words
        return words[start..<min(words.count, start + count)].map(SatelliteWord.unpack)
    }
}
