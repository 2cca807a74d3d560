import SextantCore
import SextantTraces
import TraceInvariants

/// A Sextant JSONL trace file. A trace that loads must be within the documented bounds.
func fuzzJSONLTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let trace = try? SextantTraceFormat.read(UnsafeBufferPointer(start: data, count: size), path: "fuzz.jsonl") else { return 0 }
    checkTrace(trace)
    // What the writer writes, the reader reads.
    guard (try? SextantTraceFormat.read(SextantTraceFormat.write(trace), path: "again.jsonl")) != nil else {
        fatalError("a written trace does not read back")
    }
    return 0
}
