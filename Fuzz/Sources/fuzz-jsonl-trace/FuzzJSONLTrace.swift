@_spi(Fuzzing) import SextantTraces
import SextantCore
import SextantProtocol
import TraceInvariants

/// A Sextant JSONL trace file. A trace that loads must be within the documented bounds,
/// and every line the JSONL fast path reads must read as the general parser reads it.
func fuzzJSONLTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    checkFastPath(bytes)
    guard let trace = try? SextantTraceFormat.read(bytes, path: "fuzz.jsonl") else { return 0 }
    checkTrace(trace)
    // What the writer writes, the reader reads.
    guard (try? SextantTraceFormat.read(SextantTraceFormat.write(trace), path: "again.jsonl")) != nil else {
        fatalError("a written trace does not read back")
    }
    return 0
}

/// Each line, as a sample line of a trace that starts in 2026.
func checkFastPath(_ bytes: UnsafeBufferPointer<UInt8>) {
    let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
    var lineStart = 0
    while lineStart <= bytes.count {
        var end = lineStart
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
        if !SextantTraceFormat.fastPathAgrees(line, start: start) {
            fatalError("the JSONL fast path and the general parser disagree on: \(String(decoding: line, as: UTF8.self))")
        }
        lineStart = end + 1
    }
}
