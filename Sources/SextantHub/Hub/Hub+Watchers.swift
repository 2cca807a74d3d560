import SextantCore
import SextantProtocol

/// Control peers that called `watch`, with what they watch, kept apart so that publishing
/// an event does not look at every connection. On the hub's loop only, and nothing that
/// changes the table reaches back into it: unchecked, as every delivery asks `isEmpty`.
final class WatcherTable {
    @exclusivity(unchecked) private var watchers: [ObjectIdentifier: (peer: any RPCPeer, filter: WatchFilter)] = [:]
    /// Counts the changes of the table: a watcher came, went or changed its filter.
    private(set) var generation = 0

    var isEmpty: Bool { watchers.isEmpty }
    var all: Dictionary<ObjectIdentifier, (peer: any RPCPeer, filter: WatchFilter)>.Values { watchers.values }

    func add(_ peer: any RPCPeer, _ filter: WatchFilter) {
        watchers[ObjectIdentifier(peer)] = (peer, filter)
        generation &+= 1
    }

    func remove(_ peer: any RPCPeer) {
        guard watchers.removeValue(forKey: ObjectIdentifier(peer)) != nil else { return }
        generation &+= 1
    }

    /// Whether a watcher would see an event of `method` that went to no app.
    func admit(_ method: String) -> Bool { watchers.values.contains { $0.filter.admits(method, deliveredTo: nil) } }

    /// Whether a watcher's topics take `method`, whatever app it concerns (a watcher of one
    /// app among them).
    func mayAdmit(_ method: String) -> Bool { watchers.values.contains { $0.filter.topics.isEmpty || $0.filter.topics.contains(method) } }

    /// Whether a watcher would see an event of `method` about `app` that went (`delivered`)
    /// or not to it.
    func admit(_ method: String, app: String?, delivered: Bool) -> Bool {
        watchers.values.contains { $0.filter.admits(method, deliveredTo: delivered ? app : nil) }
    }
}

/// A question asked of the watchers on every sample — does one take `timeZone` events? —
/// answered again only when the watchers changed: the filters' names are strings, and
/// hashing them for every fix and every service was most of what a fix nobody hears cost.
struct WatcherInterest {
    private let methods: [String]
    private var generation = -1
    private var answer = false

    init(_ methods: String...) { self.methods = methods }

    mutating func isHeard(by watchers: WatcherTable) -> Bool {
        if generation != watchers.generation {
            generation = watchers.generation
            answer = methods.contains { watchers.admit($0) }
        }
        return answer
    }
}

/// Who listens, as a service asks it before each fix (``PhoneService/wantsFixes``): the
/// session table and the watchers, held strongly. Through the hub's unowned reference each
/// question cost two atomic operations on the hub's counts (a strong load, a release), for
/// each service on every fix heard or not.
struct Listeners {
    let sessions: SessionTable
    let watchers: WatcherTable

    /// Whether a session subscribed to `topic`.
    func hear(_ topic: AppTopic) -> Bool { sessions.isHeard(topic) }

    /// `interest`'s answer, asked again only when the watchers changed.
    func admit(_ interest: inout WatcherInterest) -> Bool { interest.isHeard(by: watchers) }
}

/// What the watchers see (`sextantctl watch`, the panel): every event, filtered by each.
extension Hub {
    /// Sends an event to the watchers. `app` names the app an event concerns; `delivered`
    /// says whether it went to that app (a watcher of one app sees only those). `params`
    /// is built only when a watcher takes it: every fix of a replay passes here.
    func broadcastToWatchers(
        _ method: String, _ params: @autoclosure () -> JSONValue, app: String? = nil, session: SessionID? = nil,
        kind: OutboundKind = .essential, delivered: Bool = false
    ) {
        guard !watchers.isEmpty, watchers.admit(method, app: app, delivered: delivered) else { return }
        var members = params().objectValue ?? [:]
        if let app { members["app"] = .string(app) }
        if let session { members["session"] = .int(Int64(session)) }
        let watched = JSONValue.object(members)
        for (peer, filter) in watchers.all where filter.admits(method, deliveredTo: delivered ? app : nil) {
            peer.notify(method, watched, kind: kind == .location ? .sensor : kind == .locationDecision ? .essential : kind)
        }
    }

    /// Whether a watcher would see an event of `method` that went to no app (asked now; a
    /// question asked on every sample keeps its answer in a ``WatcherInterest``).
    func watchersAdmit(_ method: String) -> Bool { watchers.admit(method) }

    /// `interest`'s answer, asked again only when the watchers changed.
    func watchersAdmit(_ interest: inout WatcherInterest) -> Bool { interest.isHeard(by: watchers) }

    /// The sessions and watchers, for a question asked on every sample.
    var listeners: Listeners { Listeners(sessions: sessions, watchers: watchers) }

    /// `watch`: the peer sees the events its filter admits from now on.
    func watch(_ filter: WatchFilter, on peer: any RPCPeer) {
        watchers.add(peer, filter)
    }
}
