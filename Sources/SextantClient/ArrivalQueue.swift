/// The inbox's kept messages in arrival order: taken mostly from the front (events, in
/// order), now and then from the middle (an answer by its id). Taking the first is O(1):
/// the storage keeps a head index and drops what lies before it once that is half of it.
struct ArrivalQueue {
    private var storage: [Inbox.Arrival] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ arrival: Inbox.Arrival) { storage.append(arrival) }

    func firstIndex(where matches: (Inbox.Arrival) -> Bool) -> Int? {
        storage[head...].firstIndex(where: matches)
    }

    func contains(where matches: (Inbox.Arrival) -> Bool) -> Bool { firstIndex(where: matches) != nil }

    func first<T>(_ transform: (Inbox.Arrival) -> T?) -> T? { storage[head...].lazy.compactMap(transform).first }

    /// Removes and returns the arrival at `index` (one `firstIndex` gave).
    mutating func remove(at index: Int) -> Inbox.Arrival {
        guard index == head else { return storage.remove(at: index) }
        let arrival = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= storage.count {
            storage.removeSubrange(..<head)
            head = 0
        }
        return arrival
    }

    mutating func removeFirst() -> Inbox.Arrival { remove(at: head) }

    mutating func removeAll(where matches: (Inbox.Arrival) -> Bool) {
        storage.removeSubrange(..<head)
        head = 0
        storage.removeAll(where: matches)
    }
}
