import SextantCore
import SextantTraces
import TraceInvariants

/// A GeoJSON file, at the default walking speed and at a tiny one (lines without times).
func fuzzGeoJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    for speed in [1.4, 1e-300] {
        if let trace = try? TraceFormat.geojson.reader.read(UnsafeBufferPointer(start: data, count: size), path: "fuzz.geojson", options: TraceLoadOptions(gpxSpeed: speed)) {
            checkTrace(trace)
        }
    }
    return 0
}
