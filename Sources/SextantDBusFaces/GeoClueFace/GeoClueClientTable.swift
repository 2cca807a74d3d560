/// The GeoClue clients of the bus, by number and by owner, as the manager keeps them: a
/// client belongs to the unique bus name that made it, only that name may use it, and it
/// goes when that name leaves the bus. `GetClient` hands a sender its first live client
/// (making one if it has none); `CreateClient` always makes a new one.
///
/// A value with no I/O: the face keeps its D-Bus objects in step with what it returns.
/// Bounded: a sender may hold `perSenderLimit` clients, a uid `perUidLimit` (its share,
/// whatever number of connections it opens) and the bus `totalLimit`, so that a peer
/// calling `CreateClient` in a loop cannot grow the daemon without bound, and one user
/// cannot take every client from the others (GeoClue itself has no bound).
struct GeoClueClientTable<Client> {
    struct Entry {
        let number: UInt32
        /// The unique bus name (":1.42") that made it.
        let owner: String
        /// The uid of its owner, as the bus says.
        let uid: UInt32
        var client: Client
    }

    static var perSenderLimit: Int { 16 }
    /// A sixteenth of the bus's: sixteen users at least share it.
    static var perUidLimit: Int { 64 }
    static var totalLimit: Int { 1024 }

    private var entries: [UInt32: Entry] = [:]
    /// Each sender's clients in the order they were made (GetClient hands out the first).
    private var bySender: [String: [UInt32]] = [:]
    /// How many clients each uid holds.
    private var byUid: [UInt32: Int] = [:]
    private var lastNumber: UInt32 = 0

    enum Refusal: Error, Equatable {
        case senderLimit
        /// The sender's uid holds its share.
        case uidLimit
        case totalLimit
        /// Every client number has been used (after 2³² clients).
        case numbersExhausted
    }

    var count: Int { entries.count }

    subscript(number: UInt32) -> Entry? { entries[number] }

    /// All clients, by number.
    var all: [Entry] { entries.keys.sorted().map { entries[$0]! } }

    /// `GetClient`: the sender's existing client, or a new one made by `make`.
    mutating func getClient(sender: String, uid: UInt32, make: (UInt32) -> Client) throws(Refusal) -> (number: UInt32, created: Bool) {
        if let first = bySender[sender]?.first { return (first, false) }
        return (try createClient(sender: sender, uid: uid, make: make), true)
    }

    /// `CreateClient`: always a new client, numbered after every one before it.
    mutating func createClient(sender: String, uid: UInt32, make: (UInt32) -> Client) throws(Refusal) -> UInt32 {
        guard (bySender[sender]?.count ?? 0) < Self.perSenderLimit else { throw .senderLimit }
        guard byUid[uid, default: 0] < Self.perUidLimit else { throw .uidLimit }
        guard entries.count < Self.totalLimit else { throw .totalLimit }
        guard lastNumber < UInt32.max else { throw .numbersExhausted }
        lastNumber += 1
        entries[lastNumber] = Entry(number: lastNumber, owner: sender, uid: uid, client: make(lastNumber))
        bySender[sender, default: []].append(lastNumber)
        byUid[uid, default: 0] += 1
        return lastNumber
    }

    /// How many clients `uid` holds.
    func count(of uid: UInt32) -> Int { byUid[uid] ?? 0 }

    /// Whether `sender` may use client `number` (the client exists and is its own).
    func isOwner(_ sender: String, of number: UInt32) -> Bool { entries[number]?.owner == sender }

    /// `DeleteClient`: removes the client if it exists and is the sender's; anything else
    /// removes nothing (GeoClue answers both with success).
    mutating func delete(_ number: UInt32, sender: String) -> Entry? {
        guard isOwner(sender, of: number) else { return nil }
        return remove(number)
    }

    /// The sender left the bus: every client it held, removed.
    mutating func senderLeft(_ sender: String) -> [Entry] {
        let numbers = bySender.removeValue(forKey: sender) ?? []
        let removed = numbers.compactMap { entries.removeValue(forKey: $0) }
        for entry in removed { uncount(entry.uid) }
        return removed
    }

    mutating func update(_ number: UInt32, _ change: (inout Client) -> Void) {
        guard entries[number] != nil else { return }
        change(&entries[number]!.client)
    }

    private mutating func remove(_ number: UInt32) -> Entry? {
        guard let entry = entries.removeValue(forKey: number) else { return nil }
        bySender[entry.owner]?.removeAll { $0 == number }
        if bySender[entry.owner]?.isEmpty == true { bySender[entry.owner] = nil }
        uncount(entry.uid)
        return entry
    }

    private mutating func uncount(_ uid: UInt32) {
        byUid[uid, default: 1] -= 1
        if byUid[uid] == 0 { byUid[uid] = nil }
    }
}

/// The object paths of GeoClue's D-Bus objects.
enum GeoClueObjectPath {
    static let service = "org.freedesktop.GeoClue2"
    static let manager = "/org/freedesktop/GeoClue2/Manager"
    static let clientPrefix = "/org/freedesktop/GeoClue2/Client/"
    /// D-Bus's null object path: a client's `Location` before its first.
    static let none = "/"

    static func client(_ number: UInt32) -> String { clientPrefix + String(number) }

    /// A client's locations are numbered from 0, under the client's path.
    static func location(client number: UInt32, index: UInt32) -> String { client(number) + "/Location/" + String(index) }

    /// The client number in a client's path; nil for any other path (leading zeros,
    /// signs and numbers past 2³²-1 are not client paths).
    static func clientNumber(_ path: String) -> UInt32? {
        guard path.hasPrefix(clientPrefix) else { return nil }
        let digits = path.dropFirst(clientPrefix.count)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.first != "0" || digits.count == 1 else {
            return nil
        }
        return UInt32(digits)
    }
}
