#if canImport(Glibc)
import Glibc
#endif

/// A mutex and its condition variable (on the monotonic clock): the lock around a
/// connection's inbox, and what a blocking wait sleeps on until the reader brings news.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Sleeps (the lock held by the caller) until woken or `deadline` passes (monotonic
    /// seconds; nil: no deadline). False once the deadline has passed.
    func wait(until deadline: Double?) -> Bool {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return true
        }
        guard deadline > Self.now() else { return false }
        var time = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT || deadline > Self.now()
    }

    func broadcast() { pthread_cond_broadcast(condition) }

    /// Seconds on the monotonic clock, the one `wait` measures deadlines on.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
