import Foundation
import SextantCore
import SextantTraces
import TraceInvariants

/// An Android GnssLogger recording, with each provider choice; one input in eight is also
/// replayed from a file (`SpooledSampleTrace`, a temporary file of its own), which must
/// give the same samples.
func fuzzGnssLogger(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let streams = bytes.reduce(0, { $0 &+ UInt32($1) }) % 8 == 0
    if streams { scratch.write(UnsafeRawBufferPointer(bytes)) }
    for provider in [GnssProvider.automatic, .any] {
        let whole = try? GnssLoggerReader.read(bytes, path: "fuzz.txt", provider: provider)
        if let whole { checkTrace(whole) }
        if streams {
            checkStreamedSamples(try? TraceFormat.gnsslogger.reader.openForReplay(path: scratch.path, options: TraceLoadOptions(gnssProvider: provider)), whole: whole)
        }
    }
    return 0
}

/// One scratch file for the whole run, rewritten for each input.
nonisolated(unsafe) let scratch = ScratchFile(kind: "txt")
