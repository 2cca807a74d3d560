import SextantCore
import SextantTraces
import TraceInvariants

/// An NMEA 0183 log: lenient, so almost anything loads; what loads is within bounds.
func fuzzNMEA(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The reader takes text; bytes that are not UTF-8 are repaired as a file's would not be,
    // which still reaches every path of the line splitter and the sentence parser.
    guard let trace = try? NMEAReader.read(String(decoding: bytes, as: UTF8.self), path: "fuzz.nmea") else { return 0 }
    checkTrace(trace)
    return 0
}
