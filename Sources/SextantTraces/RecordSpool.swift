import SextantCore
import SextantProtocol

/// The words of a trace's records (`SampleRecord.spoolWords`), one record's after
/// another, written as the samples are spooled, and the kinds they are of: a sample's
/// spool record names its record by the kind's number here, its first word and its count
/// (`SampleWords`), so any record kind is spooled and read back without a table.
final class RecordSpool {
    private let path: String
    /// Made at the first word: most traces have no record.
    private var file: SpoolFile?
    private var partial: [UInt64] = []
    /// Words appended.
    private(set) var count = 0
    /// The kinds of the records appended, each once, by number.
    private(set) var kinds: [RecordKind] = []

    /// `path`: the trace, for errors.
    init(for path: String) { self.path = path }

    /// Appends `record`'s words; answers its kind's number, its first word and its count.
    func append(_ record: SampleRecord) throws(TraceError) -> (kind: Int, first: Int, count: Int) {
        let kind = number(of: record.kind)
        let words = record.spoolWords
        let first = count
        partial.append(contentsOf: words)
        count += words.count
        while partial.count >= SpoolFile.words {
            try spoolFile().append(Array(partial.prefix(SpoolFile.words)))
            partial.removeFirst(SpoolFile.words)
        }
        return (kind, first, words.count)
    }

    /// What was appended, to be read by number from now on.
    func sealed() throws(TraceError) -> SpooledRecordWords {
        if !partial.isEmpty { try spoolFile().append(partial + [UInt64](repeating: 0, count: SpoolFile.words - partial.count)) }
        partial.removeAll()
        return SpooledRecordWords(words: try file?.sealed(), kinds: kinds)
    }

    private func number(of kind: RecordKind) -> Int {
        if let known = kinds.firstIndex(of: kind) { return known }
        kinds.append(kind)
        return kinds.count - 1
    }

    private func spoolFile() throws(TraceError) -> SpoolFile {
        if let file { return file }
        let made = try SpoolFile(for: path)
        file = made
        return made
    }
}

/// The records `RecordSpool` wrote, read back by their kind's number and their words' place.
final class SpooledRecordWords: Sendable {
    /// Nil when every record had no words (an empty sky).
    private let words: SpooledRecords?
    private let kinds: [RecordKind]

    init(words: SpooledRecords?, kinds: [RecordKind]) {
        self.words = words
        self.kinds = kinds
    }

    func record(kind: Int, from first: Int, count: Int) throws(TraceError) -> SampleRecord {
        kinds[kind].record(spoolWords: try read(from: first, count: count)[...])
    }

    private func read(from first: Int, count: Int) throws(TraceError) -> [UInt64] {
        guard count > 0, let words else { return [] }
        let record = first / SpoolFile.words
        let last = (first + count - 1) / SpoolFile.words
        let read = try words.read(from: record, count: last - record + 1)
        let start = first - record * SpoolFile.words
        return Array(read[start..<min(read.count, start + count)])
    }
}

/// Samples spooled as a reader that reads its file in one pass hands them over (GPX,
/// GnssLogger), records and all, then played by index from disk (`SpooledSampleTrace`).
final class SampleSpool {
    private let samples: SpoolFile
    private let records: RecordSpool

    /// `path`: the trace, for errors.
    init(for path: String) throws(TraceError) {
        samples = try SpoolFile(for: path)
        records = RecordSpool(for: path)
    }

    func append(_ sample: TraceSample) throws(TraceError) { try samples.append(SampleWords.words(sample, records: records)) }

    /// The samples appended, to be played.
    func sealed(start: Timestamp, durationNanoseconds: Int64, skipped: [String: Int]) throws(TraceError) -> SpooledSampleTrace {
        SpooledSampleTrace(
            start: start, samples: try samples.sealed(), records: try records.sealed(), durationNanoseconds: durationNanoseconds, skipped: skipped)
    }
}
