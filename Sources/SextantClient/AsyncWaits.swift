import SextantProtocol

/// A task's waits on the inbox: the reader resumes the task the moment its answer or event
/// is read; cancelling the task ends its wait with ``ClientError/cancelled``.
extension ConnectionCore {
    func awaitAnswer(_ id: JSONValue) async throws(ClientError) -> JSONValue {
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
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<ServerEvent, any Error>) in
                    let now = monitor.withLock { () -> Result<ServerEvent, ClientError>? in
                        if Task.isCancelled { return .failure(.cancelled) }
                        do throws(ClientError) {
                            if try inbox.awaitEvent(waiter) { return nil }
                            // Not waiting: an event is kept, or the connection is over.
                            guard let event = try inbox.takeEvent(where: { _ in true }) else { return .failure(.closed) }
                            return .success(event)
                        } catch {
                            return .failure(error)
                        }
                    }
                    monitor.broadcast()
                    if let now { waiter.resume(with: now) }
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
