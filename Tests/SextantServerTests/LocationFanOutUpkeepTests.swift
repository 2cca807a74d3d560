import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub

/// The fan-out's list of the sessions that hear locations (``LocationFanOut``) is read only
/// when a fix comes: with none coming, a device farm's apps that connect, stream and leave
/// must not pile up in it, nor apps that start and stop their streams.
@Suite struct LocationFanOutUpkeepTests {
    func opener() throws -> (SessionTable, () -> AppSession) {
        let table = SessionTable()
        let conditions = InterfaceConditions(profile: .phone, deviceOrientation: .portrait, lastUprightDeviceOrientation: nil, rotationLock: false)
        let interface = try AppInterfaceOrientation(declared: nil, state: .foreground, conditions: conditions)
        let output = SessionTableUpkeepTests.NoOutput()
        return (table, { table.open(app: "com.example.churn", output: output, interface: interface) })
    }

    @Test("L1: sessions that stream and leave, with no fix coming, leave the fan-out's list bounded")
    func closedStreamsLeave() throws {
        let (table, open) = try opener()
        let fanOut = LocationFanOut()
        let staying = (0..<10).map { _ in open() }
        for session in staying {
            session.fixes.stream = LocationStream()
            fanOut.startsHearing(session)
        }
        for _ in 0..<5_000 {
            let session = open()
            session.fixes.stream = LocationStream()
            fanOut.startsHearing(session)
            _ = table.close(session.id)
            fanOut.closed(session)
        }
        // Compacted once half the list left: at most the ten that stay, as many that left, and one.
        #expect(fanOut.listedCount <= 2 * staying.count + 1)
        #expect(fanOut.hearers().map(\.id) == staying.map(\.id))
    }

    @Test("L1: a session that starts and stops its stream again and again is listed once")
    func restartedStreamIsListedOnce() throws {
        let (_, open) = try opener()
        let fanOut = LocationFanOut()
        let session = open()
        for _ in 0..<1_000 {
            session.fixes.stream = LocationStream()
            fanOut.startsHearing(session)
            session.fixes.stream = nil
        }
        #expect(fanOut.listedCount == 1)
        #expect(fanOut.hearers().isEmpty)
        session.fixes.stream = LocationStream()
        fanOut.startsHearing(session)
        #expect(fanOut.hearers().map(\.id) == [session.id])
    }
}
