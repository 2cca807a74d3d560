import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The bytes of a GPX file as `XMLParser` pulls them (it reads a stream in chunks), each
/// checked by `GPXPreflightScan` before the parser sees it: what would crash the parser
/// never reaches it, and the file needs to be in memory only a window at a time.
///
/// At the first problem the stream ends (an error); `finish()` then checks the rest of
/// the file, so that the problem reported is the one `GPXPreflight` finds in the whole
/// file, before any the parser or the reader found in its first part.
final class GPXCheckedInput: InputStream {
    /// Reads up to `count` bytes at `offset` into the pointer; answers how many, 0 at the
    /// end, -1 on an error.
    typealias Source = (UnsafeMutableRawPointer, Int, Int64) -> Int

    /// What is checked at a time: the longest XML declaration or processing instruction a
    /// file may have (a longer one is refused).
    static let windowSize = 1 << 20

    private(set) var scan = GPXPreflightScan()
    private(set) var readError: String?
    private let source: Source
    private let window = UnsafeMutablePointer<UInt8>.allocate(capacity: GPXCheckedInput.windowSize)
    private var filled = 0, settled = 0, delivered = 0
    private var nextOffset: Int64 = 0
    private var atEnd = false
    private var tooLong = false

    init(source: @escaping Source) {
        self.source = source
        super.init(data: Data())
    }

    deinit { window.deallocate() }

    /// The first problem of the file, once `finish()` has run.
    var problem: (line: Int, reason: String)? {
        if let problem = scan.problem { return problem }
        if tooLong { return (scan.line, "a declaration or processing instruction longer than \(Self.windowSize / 1024 / 1024) MiB") }
        return nil
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !stopped }
    override var streamError: (any Error)? { nil }

    private var stopped: Bool { scan.problem != nil || tooLong || readError != nil || (atEnd && delivered == filled) }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        while delivered == settled {
            if scan.problem != nil || tooLong || readError != nil { return -1 }
            if atEnd { return 0 }
            advance()
        }
        let count = min(maxLength, settled - delivered)
        buffer.update(from: window + delivered, count: count)
        delivered += count
        return count
    }

    /// Checks the rest of the file (after the parse stopped, for whatever reason).
    func finish() {
        while scan.encodingProblem == nil, !tooLong, readError == nil, !(atEnd && settled == filled) {
            delivered = settled
            advance()
        }
    }

    /// Moves the unsettled bytes to the front, reads more after them and checks them.
    private func advance() {
        if settled > 0 {
            let left = filled - settled
            if left > 0 { window.update(from: window + settled, count: left) }
            filled = left
            settled = 0
            delivered = 0
        }
        if !atEnd {
            guard filled < Self.windowSize else {
                tooLong = true
                return
            }
            let got = source(window + filled, Self.windowSize - filled, nextOffset)
            if got < 0 {
                readError = String(cString: strerror(errno))
                return
            }
            if got == 0 { atEnd = true }
            filled += got
            nextOffset += Int64(got)
        }
        settled = scan.scan(UnsafeBufferPointer(start: window, count: filled), atEnd: atEnd)
    }
}
