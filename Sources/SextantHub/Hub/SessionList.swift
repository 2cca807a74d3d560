/// Sessions in id order, which one leaves in O(1) amortized: a session that leaves is only
/// counted, and the list drops every session that left at once, when they are half of it or
/// before it is read. Taking each out of the middle of the list as it left made closing N
/// sessions O(N²) (shutdown, a device farm's churn).
///
/// Whether a listed session still belongs is the owner's to say (`belongs`), from the
/// session's own state (open, subscribed): the list keeps no second copy of it.
struct SessionList {
    /// In id order; those that left since the last `compact` among them.
    private(set) var listed: [AppSession] = []
    /// How many times a listed session left since the last `compact`: at least one
    /// session no longer belongs while this is above 0.
    private var left = 0

    /// `session` joins, in id order: at the end when it is the newest (a session opening),
    /// by a binary search otherwise. The caller lists a session at most once.
    mutating func insert(_ session: AppSession) {
        guard let last = listed.last, last.id > session.id else { return listed.append(session) }
        listed.insert(session, at: listed.partitioningIndex { $0.id > session.id })
    }

    /// A listed session no longer belongs: dropped with the others at the next `compact`,
    /// at once when those that left are half the list (so that nothing left behind grows).
    mutating func leave(_ belongs: (AppSession) -> Bool) {
        left += 1
        if left * 2 > listed.count { compact(belongs) }
    }

    /// Whether some listed session left since the last `compact`: the list must drop
    /// them before it is read. Asked first, so that reading a list nobody left (the
    /// services ask on every fix) is a plain read.
    var hasLeavers: Bool { left > 0 }

    /// Drops every listed session that no longer belongs (`belongs` is asked once each).
    mutating func compact(_ belongs: (AppSession) -> Bool) {
        listed.removeAll { !belongs($0) }
        left = 0
    }
}
