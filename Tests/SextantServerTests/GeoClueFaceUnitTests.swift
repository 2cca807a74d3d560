import Foundation
import SextantCore
import SextantProtocol
import Testing

@testable import SextantDBusFaces
@testable import SextantHub
@testable import SextantServer

/// The GeoClue face's pure parts: thresholds as GeoClue 2.6 applies them, accuracy levels
/// and Sextant's accuracy, the client table per sender, object paths, a Location's values.
@Suite("GeoClue face: thresholds, accuracy levels, clients per sender")
struct GeoClueFaceUnitTests {
    /// Metres per degree of latitude on Geo's sphere (R = 6 371 008.8 m): 2πR/360.
    static let metresPerDegree = 2 * Double.pi * 6_371_008.8 / 360

    private func fix(north metres: Double, at seconds: Double) -> LocationFix {
        LocationFix(latitude: 48 + metres / Self.metresPerDegree, longitude: 2.35, time: Timestamp(seconds: seconds))
    }

    @Test("distance threshold: a move under it from the last location signalled updates in place; the reference is the signalled one, not the last seen")
    func distanceThreshold() {
        var thresholds = GeoClueThresholds(distance: 100)
        #expect(thresholds.offer(fix(north: 0, at: 1)) == .signal, "the first location is always signalled")
        #expect(thresholds.offer(fix(north: 60, at: 2)) == .updateInPlace)
        // 120 m from the signalled one at 0 (60 m from the last seen): signalled.
        #expect(thresholds.offer(fix(north: 120, at: 3)) == .signal)
        #expect(thresholds.offer(fix(north: 219, at: 4)) == .updateInPlace, "99 m from 120")
        #expect(thresholds.offer(fix(north: 221, at: 5)) == .signal, "101 m from 120")
        #expect(thresholds.signalled == fix(north: 221, at: 5))
    }

    @Test("time threshold: whole seconds of the locations' own timestamps, in either direction")
    func timeThreshold() {
        var thresholds = GeoClueThresholds(time: 5)
        #expect(thresholds.offer(fix(north: 0, at: 100.9)) == .signal)
        #expect(thresholds.offer(fix(north: 500, at: 104.99)) == .updateInPlace, "104 - 100 = 4 s")
        // 105.1 is 4.2 s after 100.9, but GeoClue counts whole seconds: 105 - 100 = 5, not below 5.
        #expect(thresholds.offer(fix(north: 1000, at: 105.1)) == .signal)
        #expect(thresholds.offer(fix(north: 1500, at: 101)) == .updateInPlace, "a step back of 4 s is below too")
        #expect(thresholds.offer(fix(north: 2000, at: 99)) == .signal, "a step back of 6 s is not")
    }

    @Test("either threshold holds a location back; 0 holds none back, even the same place at the same time")
    func bothThresholds() {
        var both = GeoClueThresholds(distance: 100, time: 10)
        #expect(both.offer(fix(north: 0, at: 0)) == .signal)
        #expect(both.offer(fix(north: 500, at: 3)) == .updateInPlace, "far enough, too soon")
        #expect(both.offer(fix(north: 50, at: 30)) == .updateInPlace, "late enough, too near")
        #expect(both.offer(fix(north: 500, at: 30)) == .signal)
        var none = GeoClueThresholds()
        #expect(none.offer(fix(north: 0, at: 0)) == .signal)
        #expect(none.offer(fix(north: 0, at: 0)) == .signal)
    }

    @Test("whole seconds round down, before 1970 too")
    func wholeSeconds() {
        #expect(GeoClueThresholds.wholeSeconds(Timestamp(nanoseconds: 1_999_999_999)) == 1)
        #expect(GeoClueThresholds.wholeSeconds(Timestamp(nanoseconds: -1)) == -1)
        #expect(GeoClueThresholds.wholeSeconds(Timestamp(nanoseconds: -1_000_000_000)) == -1)
        #expect(GeoClueThresholds.wholeSeconds(.earliest) < 0)
    }

    @Test("a requested level is settled as GeoClue does: clamped to COUNTRY...EXACT, a number between levels taken down")
    func settledLevels() {
        let expected: [UInt32: GeoClueAccuracyLevel] = [
            0: .country, 1: .country, 2: .country, 3: .country, 4: .city, 5: .neighborhood, 6: .street, 7: .street,
            8: .exact, 9: .exact, UInt32.max: .exact,
        ]
        for (requested, level) in expected { #expect(GeoClueAccuracyLevel.settled(requested) == level, "level \(requested)") }
    }

    @Test("L10: COUNTRY and CITY are Sextant's reduced accuracy, finer levels full; a reduced grant makes every level reduced")
    func levelsAndGrants() {
        for level in GeoClueAccuracyLevel.allCases where level != .none {
            let coarse = level == .country || level == .city
            #expect(level.served(granted: .full) == (coarse ? .reduced : .full), "\(level) granted full")
            #expect(level.served(granted: .reduced) == .reduced, "\(level) granted reduced")
            #expect(level.streamDesiredAccuracy == (coarse ? 2000 : 0))
            #expect(LocationStream(desiredAccuracy: level.streamDesiredAccuracy).served(.full) == level.served(granted: .full))
        }
        #expect(GeoClueAccuracyLevel.available(servicesEnabled: true) == .exact)
        #expect(GeoClueAccuracyLevel.available(servicesEnabled: false) == .none)
    }

    @Test("L10, L11: a CITY stream of a fully granted app gives cell centres within the cell's half-diagonal, accuracy 2000 m, once per cell")
    func cityStreamGivesTheGrid() {
        var stream = LocationStream(desiredAccuracy: GeoClueAccuracyLevel.city.streamDesiredAccuracy)
        let fudger = LocationFudger(offsetEast: 700, offsetNorth: 1300)
        var delivered: [LocationFix] = []
        // 10 km north in 100 m steps: the true position crosses five cell rows at most six.
        for step in 0...100 {
            let truth = fix(north: Double(step) * 100, at: Double(step))
            guard let (out, accuracy) = stream.offer(truth, authorized: .full, fudger: fudger) else { continue }
            #expect(accuracy == .reduced)
            #expect(out.horizontalAccuracy == 2000 && out.altitude == nil && out.speed == nil && out.course == nil)
            // The centre of a 2 km square is at most √2 km from any point in it.
            let apart = GreatCircleLeg(from: GeoPoint(latitude: truth.latitude, longitude: truth.longitude), to: GeoPoint(latitude: out.latitude, longitude: out.longitude)).length
            #expect(apart <= 1000 * 2.0.squareRoot() + 1)
            delivered.append(out)
        }
        #expect((5...6).contains(delivered.count), "one location per cell row crossed, got \(delivered.count)")
    }

    @Test("GetClient: one client per sender, made on the first call; CreateClient: always a new one; numbers from 1")
    func clientsPerSender() throws {
        var table = GeoClueClientTable<String>()
        let a = try table.getClient(sender: ":1.5", uid: 1000) { "a\($0)" }
        #expect(a.number == 1 && a.created)
        let again = try table.getClient(sender: ":1.5", uid: 1000) { _ in "unused" }
        #expect(again.number == 1 && !again.created)
        let b = try table.getClient(sender: ":1.6", uid: 1000) { "b\($0)" }
        #expect(b.number == 2 && b.created)
        #expect(try table.createClient(sender: ":1.5", uid: 1000) { "a\($0)" } == 3)
        #expect(try table.getClient(sender: ":1.5", uid: 1000) { _ in "unused" }.number == 1, "GetClient keeps handing out the first")
        #expect(table[3]?.client == "a3" && table[3]?.owner == ":1.5")
        #expect(table.isOwner(":1.5", of: 1) && !table.isOwner(":1.6", of: 1) && !table.isOwner(":1.5", of: 9))
    }

    @Test("DeleteClient removes only the sender's own client; a sender leaving the bus frees all of its clients and no other")
    func deleteAndLeave() throws {
        var table = GeoClueClientTable<Int>()
        _ = try table.getClient(sender: ":1.5", uid: 1000) { Int($0) }
        _ = try table.createClient(sender: ":1.5", uid: 1000) { Int($0) }
        _ = try table.getClient(sender: ":1.6", uid: 1000) { Int($0) }
        #expect(table.delete(1, sender: ":1.6") == nil, "another sender's client stays")
        #expect(table.delete(1, sender: ":1.5")?.number == 1)
        #expect(try table.getClient(sender: ":1.5", uid: 1000) { _ in 0 }.number == 2, "the sender's next client is now its first")
        #expect(table.senderLeft(":1.5").map(\.number) == [2])
        #expect(table.count == 1 && table[3]?.owner == ":1.6")
        #expect(try table.getClient(sender: ":1.5", uid: 1000) { Int($0) }.number == 4, "numbers are never reused")
        #expect(table.senderLeft(":1.404").isEmpty)
    }

    @Test("a sender holds at most 16 clients and the bus 1024: CreateClient in a loop cannot grow the daemon")
    func limits() throws {
        var table = GeoClueClientTable<Void>()
        for _ in 0..<16 { _ = try table.createClient(sender: ":1.5", uid: 1000) { _ in } }
        #expect(throws: GeoClueClientTable<Void>.Refusal.senderLimit) { try table.createClient(sender: ":1.5", uid: 1000) { _ in } }
        #expect(try table.getClient(sender: ":1.5", uid: 1000) { _ in }.created == false, "GetClient still answers")
        var sender = 0
        while table.count < 1024 {
            sender += 1
            _ = try table.createClient(sender: ":2.\(sender)", uid: UInt32(sender)) { _ in }
        }
        #expect(throws: GeoClueClientTable<Void>.Refusal.totalLimit) { try table.createClient(sender: ":3.1", uid: 1000) { _ in } }
    }

    @Test("issue 28.9: a uid holds at most its share, 64 clients, over any number of senders; another uid still gets one; freed clients count no more")
    func perUidShare() throws {
        var table = GeoClueClientTable<Void>()
        for sender in 0..<4 {
            for _ in 0..<16 { _ = try table.createClient(sender: ":1.\(sender)", uid: 1000) { _ in } }
        }
        #expect(table.count(of: 1000) == 64)
        #expect(throws: GeoClueClientTable<Void>.Refusal.uidLimit) { try table.createClient(sender: ":1.9", uid: 1000) { _ in } }
        #expect(throws: GeoClueClientTable<Void>.Refusal.uidLimit) { try table.getClient(sender: ":1.9", uid: 1000) { _ in } }
        #expect(try table.createClient(sender: ":2.1", uid: 1001) { _ in } == 65)
        #expect(table.senderLeft(":1.0").count == 16 && table.delete(17, sender: ":1.1") != nil)
        #expect(table.count(of: 1000) == 47)
        #expect(try table.createClient(sender: ":1.9", uid: 1000) { _ in } == 66)
    }

    @Test("object paths: clients and their locations; only a canonical client number is a client path")
    func paths() {
        #expect(GeoClueObjectPath.client(7) == "/org/freedesktop/GeoClue2/Client/7")
        #expect(GeoClueObjectPath.location(client: 7, index: 0) == "/org/freedesktop/GeoClue2/Client/7/Location/0")
        #expect(GeoClueObjectPath.clientNumber("/org/freedesktop/GeoClue2/Client/7") == 7)
        #expect(GeoClueObjectPath.clientNumber("/org/freedesktop/GeoClue2/Client/4294967295") == UInt32.max)
        for bad in ["/org/freedesktop/GeoClue2/Client/", "/org/freedesktop/GeoClue2/Client/07", "/org/freedesktop/GeoClue2/Client/+7",
            "/org/freedesktop/GeoClue2/Client/4294967296", "/org/freedesktop/GeoClue2/Client/7/Location/0", "/org/freedesktop/GeoClue2/Manager"]
        {
            #expect(GeoClueObjectPath.clientNumber(bad) == nil, "\(bad)")
        }
    }

    @Test("a Location's values: GeoClue's unknown altitude, speed and heading; timestamp in seconds and microseconds")
    func locationValues() {
        let full = LocationFix(
            latitude: 51.5, longitude: -0.12, altitude: 35, horizontalAccuracy: 4, speed: 1.4, course: 270,
            time: Timestamp(nanoseconds: 1_700_000_000_123_456_789))
        let values = GeoClueLocationValues(full)
        #expect(values.latitude == 51.5 && values.longitude == -0.12 && values.accuracy == 4)
        #expect(values.altitude == 35 && values.speed == 1.4 && values.heading == 270 && values.description == "")
        #expect(values.timestampSeconds == 1_700_000_000 && values.timestampMicroseconds == 123_456)
        let bare = GeoClueLocationValues(LocationFix(latitude: 1, longitude: 2, horizontalAccuracy: 2000, time: Timestamp(nanoseconds: -5)))
        #expect(bare.altitude == -1.7976931348623157e+308 && bare.speed == -1 && bare.heading == -1)
        #expect(bare.timestampSeconds == 0 && bare.timestampMicroseconds == 0)
    }
}
