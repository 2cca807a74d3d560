import SextantCore
import SextantProtocol

/// Control peers that called `watch`, with what they watch, kept apart so that publishing
/// an event does not look at every connection.
final class WatcherTable {
    private var watchers: [ObjectIdentifier: (peer: any RPCPeer, filter: WatchFilter)] = [:]

    var isEmpty: Bool { watchers.isEmpty }
    var all: Dictionary<ObjectIdentifier, (peer: any RPCPeer, filter: WatchFilter)>.Values { watchers.values }

    func add(_ peer: any RPCPeer, _ filter: WatchFilter) { watchers[ObjectIdentifier(peer)] = (peer, filter) }
    func remove(_ peer: any RPCPeer) { watchers[ObjectIdentifier(peer)] = nil }
}

/// What the watchers see (`sextantctl watch`, the panel): every event, filtered by each.
extension Hub {
    /// Sends an event to the watchers. `app` names the app an event concerns; `delivered`
    /// says whether it went to that app (a watcher of one app sees only those). `params`
    /// is built only when someone watches: every fix of a replay passes here.
    func broadcastToWatchers(
        _ method: String, _ params: @autoclosure () -> JSONValue, app: String? = nil, session: SessionID? = nil,
        kind: OutboundKind = .essential, delivered: Bool = false
    ) {
        guard !watchers.isEmpty else { return }
        var members = params().objectValue ?? [:]
        if let app { members["app"] = .string(app) }
        if let session { members["session"] = .int(Int64(session)) }
        let watched = JSONValue.object(members)
        for (peer, filter) in watchers.all where filter.admits(method, deliveredTo: delivered ? app : nil) {
            peer.notify(method, watched, kind: kind == .location ? .sensor : kind == .locationDecision ? .essential : kind)
        }
    }

    /// Whether a watcher would see an event of `method` that went to no app.
    func watchersAdmit(_ method: String) -> Bool { watchers.all.contains { $0.filter.admits(method, deliveredTo: nil) } }

    /// `watch`: the peer sees the events its filter admits from now on.
    func watch(_ filter: WatchFilter, on peer: any RPCPeer) {
        watchers.add(peer, filter)
    }
}
