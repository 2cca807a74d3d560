#if canImport(Glibc)
import Glibc
#endif
import SextantCore
import SextantTraces
import TraceInvariants

/// An NMEA 0183 log: lenient, so almost anything loads; what loads is within bounds. The
/// same bytes in a file, summed up as `trace info` streams them, give the summary of the
/// log read whole (or fail alike).
func fuzzNMEA(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The reader takes text; bytes that are not UTF-8 are repaired as a file's would not be,
    // which still reaches every path of the line splitter and the sentence parser.
    let text = String(decoding: bytes, as: UTF8.self)
    let whole = try? NMEAReader.read(text, path: "fuzz.nmea")
    if let whole { checkTrace(whole) }
    // Streaming costs a file and a 1 MiB buffer (slow under ASan): one input in eight,
    // chosen by its bytes so that a crash replays.
    if bytes.reduce(0, { $0 &+ UInt32($1) }) % 8 == 0 { checkStreamedSummary(text, whole: whole) }
    return 0
}

/// One scratch file for the whole run, rewritten for each input.
nonisolated(unsafe) let scratch = ScratchFile(kind: "nmea")

/// The same log in a file: `trace info`'s streamed summary and the streamed replay trace
/// (`StreamedNMEATrace`) agree with the log read whole.
func checkStreamedSummary(_ text: String, whole: Trace?) {
    var text = text
    text.withUTF8 { scratch.write(UnsafeRawBufferPointer($0)) }
    let streamed = try? TraceLoader.summarize(path: scratch.path).summary
    switch (whole, streamed) {
    case (nil, nil): break
    case (let whole?, let streamed?):
        guard TraceSummary(whole) == streamed else { fatalError("the streamed summary differs from the whole log's") }
    default: fatalError("streamed and whole reads disagree on whether the log loads")
    }
    checkStreamedSamples(try? StreamedNMEATrace(path: scratch.path), whole: whole)
}
