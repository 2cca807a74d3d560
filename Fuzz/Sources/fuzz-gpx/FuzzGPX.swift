import Foundation
import SextantCore
import SextantTraces
import TraceInvariants

/// A GPX file, at the default walking speed and at a tiny one (routes without times).
func fuzzGPX(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(bytes: data, count: size)
    for speed in [GPXReader.defaultSpeed, 1e-300] {
        if let trace = try? GPXReader.read(bytes, path: "fuzz.gpx", speed: speed) { checkTrace(trace) }
    }
    return 0
}
