import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantHub

/// The session table's upkeep stays O(1) amortized a change: closing N sessions (shutdown,
/// a device farm's churn) looks at O(N) sessions, not O(N²), counted by the table itself
/// (`sessionsVisited`), not timed; and what it lists stays what it should, in id order.
@Suite struct SessionTableUpkeepTests {
    /// A face that takes nothing: the table only holds it.
    final class NoOutput: SessionOutput {
        func deliver(_ event: any AppEventKind) {}
        func discardQueuedLocations() {}
        var peer: PeerCredentials? { nil }
        var face: String { "test" }
    }

    static let sessions = 2_000
    /// Sessions looked at a change, at most, on the average: a list compacted when half of
    /// it left visits each session it keeps once more, and each that left once.
    static let visitsPerChange = 4

    func table(opening count: Int, subscribedTo topics: [AppTopic]) throws -> (SessionTable, [AppSession]) {
        let table = SessionTable()
        let conditions = InterfaceConditions(profile: .phone, deviceOrientation: .portrait, lastUprightDeviceOrientation: nil, rotationLock: false)
        let interface = try AppInterfaceOrientation(declared: nil, state: .foreground, conditions: conditions)
        let output = NoOutput()
        let opened = (0..<count).map { table.open(app: "com.example.app\($0 % 7)", output: output, interface: interface) }
        for session in opened {
            for topic in topics { table.subscribe(session, to: topic) }
        }
        return (table, opened)
    }

    @Test("closing N subscribed sessions, in any order, looks at O(N) sessions", arguments: ["opening", "reverse", "shuffled"])
    func closingIsLinear(order: String) throws {
        let (table, opened) = try table(opening: Self.sessions, subscribedTo: [.visits, .timeZone])
        var generator = SplitMix64(seed: 38)
        let closing = order == "opening" ? opened : order == "reverse" ? opened.reversed() : opened.shuffled(using: &generator)
        let before = table.sessionsVisited
        for session in closing { _ = table.close(session.id) }
        let changes = Self.sessions * 3  // each close: the table's order and two topics
        #expect(table.sessionsVisited - before <= changes * Self.visitsPerChange)
        #expect(table.ordered.isEmpty && table.count == 0)
        #expect(table.subscribers(of: .visits).isEmpty && table.subscribers(of: .timeZone).isEmpty)
        #expect(table.sessionsListed == 0)
    }

    @Test("after closes and unsubscriptions the lists hold the open sessions that belong, in id order")
    func listsStayRight() throws {
        let (table, opened) = try table(opening: 300, subscribedTo: [.visits])
        var generator = SplitMix64(seed: 7)
        var open = Set(opened.map(\.id)), visiting = open
        for session in opened.shuffled(using: &generator).prefix(200) {
            if session.id % 3 == 0 {
                table.unsubscribe(session, from: .visits)
                visiting.remove(session.id)
            } else {
                _ = table.close(session.id)
                open.remove(session.id)
                visiting.remove(session.id)
            }
            // A session that left a topic and comes back is listed once, in its place.
            if session.id % 6 == 0 {
                table.subscribe(session, to: .visits)
                visiting.insert(session.id)
            }
        }
        #expect(table.ordered.map(\.id) == open.sorted())
        #expect(table.subscribers(of: .visits).map(\.id) == visiting.sorted())
        #expect(table.count == open.count)
        #expect(table.hasSession(of: "com.example.app0") == open.contains { ($0 - 1) % 7 == 0 })
    }

    @Test("churn with nobody reading the lists leaves nothing behind that grows")
    func churnIsBounded() throws {
        let (table, _) = try table(opening: 10, subscribedTo: [.visits])
        let conditions = InterfaceConditions(profile: .phone, deviceOrientation: .portrait, lastUprightDeviceOrientation: nil, rotationLock: false)
        let interface = try AppInterfaceOrientation(declared: nil, state: .foreground, conditions: conditions)
        for _ in 0..<5_000 {
            let session = table.open(app: "com.example.churn", output: NoOutput(), interface: interface)
            table.subscribe(session, to: .visits)
            _ = table.close(session.id)
        }
        #expect(table.sessionsListed <= 4 * 10 + 4)
        #expect(!table.hasSession(of: "com.example.churn"))
    }
}
