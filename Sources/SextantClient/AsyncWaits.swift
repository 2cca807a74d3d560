import SextantProtocol

/// A task's waits on the inbox: the reader resumes the task the moment its answer or event
/// is read; cancelling the task ends its wait with ``ClientError/cancelled``.
extension ConnectionCore {
    func awaitAnswer(_ id: JSONValue) async throws(ClientError) -> JSONValue {
        // What has come already is taken without suspending the task.
        if let answer = try take({ inbox throws(ClientError) in try inbox.takeAnswer(id) }) { return answer }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<JSONValue, any Error>) in
                    let now = monitor.withLock { () -> Result<JSONValue, ClientError>? in
                        if Task.isCancelled { return .failure(.cancelled) }
                        if inbox.await(id, waiter) { return nil }
                        // Not waiting: the answer has come, or the connection is over.
                        do throws(ClientError) { return .success(try inbox.takeAnswer(id) ?? JSONValue.null) } catch { return .failure(error) }
                    }
                    monitor.broadcast()
                    if let now { waiter.resume(with: now) }
                }
            } onCancel: {
                let wakeup = monitor.withLock { inbox.cancelAnswer(id) }
                wakeup?()
            }
        } catch {
            throw error as? ClientError ?? .cancelled
        }
    }

    func awaitEvent() async throws(ClientError) -> ServerEvent {
        try await awaitNextEvent(take: { inbox throws(ClientError) in try inbox.takeEvent(where: { _ in true }) }, as: Inbox.EventWaiter.event)
    }

    func awaitEventLine() async throws(ClientError) -> [UInt8] {
        try await awaitNextEvent(take: { inbox throws(ClientError) in try inbox.takeEventLine() }, as: Inbox.EventWaiter.line)
    }

    /// The next event, as `take` takes it from the inbox, or as the reader hands it to
    /// the waiter `as` makes.
    private func awaitNextEvent<T: Sendable>(
        take: (inout Inbox) throws(ClientError) -> T?, as waiter: @escaping (CheckedContinuation<T, any Error>) -> Inbox.EventWaiter
    ) async throws(ClientError) -> T {
        // A burst of events is taken one after the other without suspending the task.
        if let event = try self.take(take) { return event }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    let now = monitor.withLock { () -> Result<T, ClientError>? in
                        if Task.isCancelled { return .failure(.cancelled) }
                        do throws(ClientError) {
                            if try inbox.awaitEvent(waiter(continuation)) { return nil }
                            // Not waiting: an event is kept, or the connection is over.
                            guard let event = try take(&inbox) else { return .failure(.closed) }
                            return .success(event)
                        } catch {
                            return .failure(error)
                        }
                    }
                    monitor.broadcast()
                    if let now { continuation.resume(with: now) }
                }
            } onCancel: {
                let wakeup = monitor.withLock { inbox.cancelEvent() }
                wakeup?()
            }
        } catch {
            throw error as? ClientError ?? .cancelled
        }
    }
}
