import NIOCore

/// Lines that go to many connections, joined once for all of them.
///
/// A turn of the loop at a `max` replay sends the same run of `location` lines to every
/// app granted full accuracy. Each connection used to join its turn's lines into a buffer
/// of its own (a copy of every line per connection); now every shared line is appended
/// once to a chunk, and a connection that gets consecutive lines of a chunk keeps only
/// where its run starts and ends there. At the flush a connection of the hub's loop sends
/// its run from the chunk itself (`SocketOutput.writeAndFlush(_ run:)`); one of another
/// loop, or one whose channel holds bytes already, hands it a slice of the chunk: the same
/// bytes, written to every socket, copied by none.
///
/// A chunk is appended to only until its first slice is taken (``SharedLineRun/bytes(atFlush:)``
/// seals it): a `ByteBuffer` whose storage is shared copies it on the next write, so a
/// sealed chunk is never written again and the next line starts a new one. A chunk holds
/// at most ``LineWriter/turnLinesLimit`` bytes, so a run is never longer than a
/// connection's joined lines may be.
final class SharedLineChunks {
    @exclusivity(unchecked) private var current: SharedLineChunk?
    /// The number the next chunk takes (``SharedLineChunk/serial``).
    @exclusivity(unchecked) private var nextSerial = 1
    private let allocator = ByteBufferAllocator()

    /// Appends `line` to the current chunk (a new one when it is sealed or full); answers where it is.
    func append(_ line: ByteBuffer) -> SharedLineRun {
        let length = line.readableBytes
        if current == nil || current!.isSealed || current!.bytes.readableBytes + length > LineWriter.turnLinesLimit {
            current?.isSealed = true
            // Starts at about a line (one line a turn at speed 1) and doubles as a replay's turn fills it.
            current = SharedLineChunk(allocator.buffer(capacity: max(length, 512)), serial: nextSerial)
            nextSerial += 1
        }
        let chunk = current!
        let start = chunk.bytes.writerIndex
        chunk.bytes.writeImmutableBuffer(line)
        return SharedLineRun(chunk: chunk, start: start, end: chunk.bytes.writerIndex)
    }
}

/// Lines joined for many connections; see ``SharedLineChunks``.
final class SharedLineChunk {
    @exclusivity(unchecked) fileprivate(set) var bytes: ByteBuffer
    /// Sliced: never written again.
    @exclusivity(unchecked) fileprivate(set) var isSealed = false
    /// Which chunk of its ``SharedLineChunks`` this is, from 1: a line's place can be
    /// compared with a run's without touching either's chunk (``SharedLinePlace``).
    let serial: Int

    fileprivate init(_ bytes: ByteBuffer, serial: Int) {
        self.bytes = bytes
        self.serial = serial
    }
}

/// Consecutive lines of one chunk: a connection's run of shared lines this turn.
struct SharedLineRun {
    let chunk: SharedLineChunk
    let start: Int
    var end: Int

    /// Whether `next` follows this run directly in the same chunk.
    func isFollowed(by next: SharedLineRun) -> Bool { next.chunk === chunk && next.start == end }

    var count: Int { end - start }

    /// Where the run is, without its chunk.
    var place: SharedLinePlace { SharedLinePlace(chunk: chunk.serial, start: start, end: end) }

    /// The run's bytes where they are in the chunk, for as long as `body` runs: nothing
    /// sliced, so the chunk is not sealed. (A chunk is never read from: its readable bytes
    /// start at index 0, where the run's indices count from.)
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        chunk.bytes.withUnsafeReadableBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }

    /// The run's bytes, to hand to a channel. A slice shares the chunk's storage, and
    /// seals it. So it is copied instead before the turn's flush (`atFlush` false: a
    /// connection whose run is broken by another line mid-turn) while the chunk may still
    /// grow, not to cut the other connections' runs short; and when it is under a quarter
    /// of a large chunk, whose storage a slice keeps alive as long as it waits in the
    /// channel: a client's pending bytes never hold much more memory than they say.
    func bytes(atFlush: Bool) -> ByteBuffer {
        let length = end - start
        if (!atFlush && !chunk.isSealed) || (chunk.bytes.capacity > 4096 && length * 4 < chunk.bytes.capacity) {
            var copy = ByteBufferAllocator().buffer(capacity: length)
            copy.writeImmutableBuffer(chunk.bytes.getSlice(at: start, length: length)!)
            return copy
        }
        chunk.isSealed = true
        return chunk.bytes.getSlice(at: start, length: length)!
    }
}

/// Where a shared line is (its chunk's ``SharedLineChunk/serial`` and its bytes there), kept
/// beside the line's ``SharedLineRun``: a connection taking a turn's run of lines compares
/// these, plain integers, where each run compared would retain and release its chunk (two
/// atomic operations a line and a connection: 11 % of the hub loop's time in a replay at
/// `max` to ten apps).
struct SharedLinePlace {
    let chunk: Int
    let start: Int
    let end: Int
}
