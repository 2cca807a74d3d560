import Foundation
import Testing

@testable import SextantDBus

/// The fuzz target's entry (Fuzz/Sources/fuzz-dbus-message): a peer's bytes parsed by sd-bus
/// and read by the router's reader, on the seeds the fuzzer starts from (written by GLib).
@Suite("D-Bus: messages from their bytes on the wire")
struct DBusWireMessagesTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/fuzz-dbus-message").path

    static func seed(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + name))) }

    @Test("a Set of DesktopId, two calls in a row, nested containers: read as the router reads them")
    func seeds() throws {
        let set = DBusWireMessages.decode(try Self.seed("set-desktop-id"))
        #expect(set.count == 1 && set.first?.signature == "ssv")
        #expect(try set.first?.values.get() == [.string("org.freedesktop.GeoClue2.Client"), .string("DesktopId"), .variant(.string("org.gnome.Maps"))])
        let two = DBusWireMessages.decode(try Self.seed("two-calls"))
        #expect(two.map(\.signature) == ["", "ssv"])
        let nested = try #require(DBusWireMessages.decode(try Self.seed("nested")).first)
        #expect(nested.signature == "a{sv}(tt)aoayb")
        #expect(try nested.values.get().signature == "a{sv}(tt)aoayb")
    }

    @Test("issue 28.4: a string past the limit is refused by the same reader, naming the argument")
    func longString() throws {
        let long = try #require(DBusWireMessages.decode(try Self.seed("long-desktop-id")).first)
        #expect(throws: DBusError.invalidArgs("argument 3: a string of 5000 bytes; at most 4096 are taken")) { try long.values.get() }
    }

    @Test("cut short, or not a message at all: nothing is read, nothing traps")
    func malformed() throws {
        let set = try Self.seed("set-desktop-id")
        #expect(DBusWireMessages.decode(Array(set.dropLast(7))).isEmpty)
        #expect(DBusWireMessages.decode(Array("not a message\r\n".utf8)).isEmpty)
        #expect(DBusWireMessages.decode([]).isEmpty)
        var wrongLength = set
        wrongLength[4] = 0xff  // the body's length, past the bytes there are
        #expect(DBusWireMessages.decode(wrongLength).isEmpty)
    }
}
