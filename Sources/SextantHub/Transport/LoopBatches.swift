import NIOCore

/// What a ``LineWriter`` asks of its channel, run on the channel's loop: at once when it
/// is the hub's, else carried there in its loop's ``LoopBatch``.
enum ChannelOperation: Sendable {
    case write(SocketOutput, ByteBuffer)
    case writeAndFlush(SocketOutput, ByteBuffer)
    case flush(SocketOutput)
    case close(SocketOutput)
    /// A last line, then the channel closes once it is written.
    case writeAndClose(SocketOutput, ByteBuffer)

    /// Run on the channel's loop (``SocketOutput``: straight to the socket when it can).
    func run() {
        switch self {
        case .write(let output, let bytes): output.write(bytes)
        case .writeAndFlush(let output, let bytes): output.writeAndFlush(bytes)
        case .flush(let output): output.flush()
        case .close(let output): output.close()
        case .writeAndClose(let output, let bytes): output.writeAndClose(bytes)
        }
    }
}

/// The channel operations the hub's writers asked of one other loop since the last
/// hand-over, in the order asked; confined to the hub's loop.
///
/// The hub decides and encodes; the loop that owns a socket writes it (the system call,
/// NIO's pipeline, waking the reader: most of a delivery's cost). One hand-over per loop
/// per turn of the hub's loop, whatever the number of connections: a task each loop runs
/// in turn, so the operations for one channel reach it in the order the hub asked them,
/// before those of any later turn.
final class LoopBatch {
    let loop: EventLoop
    @exclusivity(unchecked) private(set) var operations: [ChannelOperation] = []

    init(loop: EventLoop) { self.loop = loop }

    /// Adds `operation`; answers whether the batch was empty (a hand-over is to be asked).
    func append(_ operation: ChannelOperation) -> Bool {
        operations.append(operation)
        return operations.count == 1
    }

    /// Hands what was asked to the loop, as one task.
    func handOver() {
        guard !operations.isEmpty else { return }
        let batch = operations
        operations.removeAll(keepingCapacity: true)
        loop.execute {
            for operation in batch { operation.run() }
        }
    }
}

/// The batches of the loops other than the hub's, one a loop, made as connections come.
struct LoopBatches {
    private var batches: [ObjectIdentifier: LoopBatch] = [:]

    /// The batch for `loop`; nil for `hubLoop` (its connections are written to directly).
    mutating func batch(for loop: EventLoop, hubLoop: EventLoop) -> LoopBatch? {
        guard loop !== hubLoop else { return nil }
        let key = ObjectIdentifier(loop)
        if let batch = batches[key] { return batch }
        let batch = LoopBatch(loop: loop)
        batches[key] = batch
        return batch
    }

    func handOverAll() {
        for batch in batches.values { batch.handOver() }
    }
}
