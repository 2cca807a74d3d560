import Foundation
import SextantCore
import SextantTraces
import TraceInvariants

/// A GPX file, at the default walking speed and at a tiny one (routes without times).
func fuzzGPX(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(bytes: data, count: size)
    // Streaming costs two temporary files (slow under ASan): one input in eight, chosen by
    // its bytes so that a crash replays.
    let streams = UnsafeBufferPointer(start: data, count: size).reduce(0, { $0 &+ UInt32($1) }) % 8 == 0
    if streams { scratch.write(UnsafeRawBufferPointer(start: data, count: size)) }
    for speed in [GPXReader.defaultSpeed, 1e-300] {
        let whole = try? GPXReader.read(bytes, path: "fuzz.gpx", speed: speed)
        if let whole { checkTrace(whole) }
        // The streamed replay trace (`StreamedGPXTrace`) gives the same samples.
        if streams { checkStreamedSamples(try? StreamedGPXTrace(path: scratch.path, options: TraceLoadOptions(gpxSpeed: speed)), whole: whole) }
    }
    return 0
}

/// One scratch file for the whole run, rewritten for each input.
nonisolated(unsafe) let scratch = ScratchFile(kind: "gpx")
