#if canImport(Glibc)
import Glibc
#endif
import SextantTraces

/// One scratch file per fuzzer process and kind, rewritten for each input: the streamed
/// readers read files, not bytes.
public struct ScratchFile {
    public let path: String

    public init(kind: String) {
        path = "/tmp/sextant-fuzz-\(kind)-\(getpid()).\(kind)"
        let removed = path
        // Kept until the process ends; one path per kind, so one `atexit` each suffices.
        scratchPaths.append(removed)
        if scratchPaths.count == 1 { atexit { for path in scratchPaths { unlink(path) } } }
    }

    /// Replaces the file's contents with `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { fatalError("cannot write \(path)") }
        let written = Glibc.write(fd, bytes.baseAddress, bytes.count)
        close(fd)
        guard written == bytes.count else { fatalError("cannot write \(path)") }
    }
}

nonisolated(unsafe) private var scratchPaths: [String] = []

/// A streamed replay trace hands out the samples of the same file read whole, in order,
/// and agrees with it on whether the file loads at all.
public func checkStreamedSamples(_ streamed: (any ReplayableTrace)?, whole: Trace?) {
    switch (whole, streamed) {
    case (nil, nil): return
    case (let whole?, let streamed?):
        guard streamed.sampleCount == whole.samples.count else {
            fatalError("the streamed trace has \(streamed.sampleCount) samples, the whole one \(whole.samples.count)")
        }
        for (position, sample) in whole.samples.enumerated() {
            guard (try? streamed.traceSample(at: position)) == sample else { fatalError("sample \(position) differs when streamed") }
        }
        guard streamed.start == whole.start, streamed.durationNanoseconds == whole.durationNanoseconds else {
            fatalError("the streamed trace's start or duration differs")
        }
    default:
        fatalError("streamed and whole reads disagree on whether the file loads")
    }
}
