import Foundation
import Synchronization

/// A harness's failure, with what the test needs to see to find out why.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Seconds on the monotonic clock, for deadlines and for the time between two events.
public func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// Calls `probe` every `interval` seconds until it gives a value, for what announces itself
/// by no event a test can block on (a file another process writes, a status asked for);
/// after `timeout` seconds, throws `failure()`'s text. `probe` may throw to give up early
/// (the process it waits on ended).
public func poll<T>(timeout: Double, every interval: Double = 0.02, failure: () -> String, _ probe: () throws -> T?) throws -> T {
    let deadline = monotonicSeconds() + timeout
    while true {
        if let value = try probe() { return value }
        guard monotonicSeconds() < deadline else { throw HarnessError(failure()) }
        usleep(useconds_t(interval * 1e6))  // polling: there is nothing to block on
    }
}

/// A value other threads change and a test waits on with a deadline: each change wakes the
/// waiters, which look at the value again. The value lives in a `Mutex`; the condition only
/// wakes.
public final class Watched<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    private let changed = NSCondition()

    public init(_ initial: Value) { value = Mutex(initial) }

    /// Changes the value and wakes every waiter; what `change` returns.
    @discardableResult
    public func update<R: Sendable>(_ change: (inout Value) -> R) -> R {
        changed.lock()
        defer {
            changed.broadcast()
            changed.unlock()
        }
        return value.withLock { change(&$0) }
    }

    /// A copy of the value now.
    public var current: Value { value.withLock { $0 } }

    /// The first answer `test` gives for the value, waiting at most `timeout` seconds for
    /// changes; nil when it gave none by then.
    public func wait<T>(timeout: Double, for test: (Value) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        changed.lock()
        defer { changed.unlock() }
        while true {
            if let answer = test(current) { return answer }
            if !changed.wait(until: deadline) { return test(current) }
        }
    }
}
