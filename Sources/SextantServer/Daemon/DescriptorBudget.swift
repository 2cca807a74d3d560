import Foundation

/// How the process's descriptors are shared, so that apps alone can never exhaust them:
/// at the limit `accept` fails with EMFILE while the listening socket stays readable, and
/// the control socket, the store and the sources would have none left.
public enum DescriptorBudget {
    /// App connections served at once unless `--max-clients` says otherwise.
    public static let defaultMaxAppClients = 1024
    /// Control connections served at once (sextantctl, watchers).
    static let controlClients = 32
    /// Descriptors kept for everything but connections: trace files being read or
    /// recorded, gpsd reconnections, IIO devices and udev, SQLite's journal, one refused
    /// client at a time on each socket.
    static let reserved = 64

    /// The app socket's share: what was asked for, or less when the soft `RLIMIT_NOFILE`
    /// leaves less room beside the descriptors open now, the control socket's share and
    /// the reserve. At least one, or the daemon cannot serve and says so.
    static func appClientLimit(requested: Int) throws(DaemonStartError) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return requested }
        let soft = Int(clamping: limit.rlim_cur)  // RLIM_INFINITY is the largest rlim_t
        let room = soft - openDescriptors() - controlClients - reserved
        guard room >= 1 else {
            throw DaemonStartError(
                description: "the descriptor limit (ulimit -n \(soft)) leaves no room for app connections: "
                    + "raise it to at least \(soft - room + 1)")
        }
        return min(requested, room)
    }

    /// Descriptors open in this process now.
    static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}
