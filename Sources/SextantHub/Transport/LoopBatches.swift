import NIOCore

/// What a ``LineWriter`` asks of its channel, when the channel lives on another loop than
/// the hub's (`--io-threads`): carried there in its loop's ``LoopBatch``.
enum ChannelOperation: Sendable {
    case write(Channel, ByteBuffer)
    case writeAndFlush(Channel, ByteBuffer)
    case flush(Channel)
    case close(Channel)
    /// A last line, then the channel closes once it is written.
    case writeAndClose(Channel, ByteBuffer)

    /// Run on the channel's loop: straight through its pipeline.
    func run() {
        switch self {
        case .write(let channel, let bytes): channel.write(bytes, promise: nil)
        case .writeAndFlush(let channel, let bytes): channel.writeAndFlush(bytes, promise: nil)
        case .flush(let channel): channel.flush()
        case .close(let channel): channel.close(promise: nil)
        case .writeAndClose(let channel, let bytes):
            channel.writeAndFlush(bytes).whenComplete { _ in channel.close(promise: nil) }
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
    private(set) var operations: [ChannelOperation] = []

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
