import SextantCore
import SextantTraces
import TraceInvariants

/// A KML file, at the default walking speed and at a tiny one (lines without times).
func fuzzKML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    for speed in [1.4, 1e-300] {
        if let trace = try? TraceFormat.kml.reader.read(UnsafeBufferPointer(start: data, count: size), path: "fuzz.kml", options: TraceLoadOptions(gpxSpeed: speed)) {
            checkTrace(trace)
        }
    }
    return 0
}
