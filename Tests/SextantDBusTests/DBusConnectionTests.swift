import Foundation
import SextantTestSupport
import Testing

@testable import SextantDBus

/// The D-Bus core against a real dbus-daemon and real clients (gdbus, busctl): the
/// calls go through the bus as any program's would.
@Suite("D-Bus core: objects from tables, on a private bus, with real clients")
struct DBusConnectionTests {
    static let name = "org.sextant.Test"
    static let path = "/org/sextant/Test/Counter"
    static let interface = "org.sextant.Test.Counter"

    /// An object with one of everything the table holds.
    static func counter(held: Awaited<String>) -> DBusObject {
        let object = DBusObject(
            path: path,
            interfaces: [
                DBusInterface(
                    interface,
                    methods: [
                        DBusMethod("Echo", inputs: [DBusArgument("text", "s")], outputs: [DBusArgument("text", "s")]) { call in
                            call.reply(call.arguments)
                        },
                        DBusMethod("Add", inputs: [DBusArgument("a", "i"), DBusArgument("b", "i")], outputs: [DBusArgument("sum", "i")]) {
                            call in
                            guard case .int32(let a) = call.arguments[0], case .int32(let b) = call.arguments[1] else { return }
                            let (sum, overflow) = a.addingReportingOverflow(b)
                            if overflow { call.fail(DBusError("org.sextant.Test.Error.Overflow", "\(a) + \(b) overflows")) } else { call.reply([.int32(sum)]) }
                        },
                        DBusMethod("Hold") { call in
                            held.set(call.sender)
                            call.reply([])
                        },
                        DBusMethod("Forget") { _ in },
                    ],
                    properties: [
                        DBusProperty("Count", "u"),
                        DBusProperty("Label", "s") { _, _, value throws(DBusError) in
                            if value.stringValue == "bad" { throw DBusError.invalidArgs("Label cannot be bad") }
                        },
                        DBusProperty("Model", "s", changeSignal: .constant),
                    ],
                    signals: [DBusSignal("Ticked", arguments: [DBusArgument("count", "u")])])
            ])
        object.set(interface, "Count", .uint32(0))
        object.set(interface, "Label", .string("start"))
        object.set(interface, "Model", .string("test"))
        return object
    }

    /// A connection serving the counter under the test name, started.
    static func serve(on bus: PrivateBus, held: Awaited<String>, left: Awaited<String>? = nil, lost: Awaited<String>? = nil) throws
        -> (DBusConnection, DBusObject)
    {
        let connection = try DBusConnection.connect(.address(bus.address))
        let object = counter(held: held)
        connection.export(object)
        try connection.requestName(name)
        connection.start(onPeerLeft: { name in left?.set(name) }, onLost: { error in lost?.set(error.description) })
        return (connection, object)
    }

    func gdbusCall(_ bus: PrivateBus, _ method: String, _ arguments: String...) throws -> CommandResult {
        try run(
            ["/usr/bin/env", "gdbus", "call", "--address", bus.address, "--dest", Self.name, "--object-path", Self.path, "--method", method] + arguments)
    }

    @Test("A method's arguments and reply go through the table; its named error reaches the client")
    func methodsFromTheTable() throws {
        let bus = try PrivateBus()
        let (connection, _) = try Self.serve(on: bus, held: Awaited())
        defer { connection.stop() }
        #expect(try gdbusCall(bus, Self.interface + ".Echo", "héllo").stdout == "('héllo',)\n")
        #expect(try gdbusCall(bus, Self.interface + ".Add", "2", "40").stdout == "(42,)\n")
        let overflow = try gdbusCall(bus, Self.interface + ".Add", "2147483647", "1")
        #expect(overflow.status != 0)
        #expect(overflow.stderr.contains("org.sextant.Test.Error.Overflow"))
        #expect(overflow.stderr.contains("2147483647 + 1 overflows"))
    }

    @Test("Wrong arguments, an unknown method or object are D-Bus errors with their names; a dropped call is answered")
    func errors() throws {
        let bus = try PrivateBus()
        let (connection, _) = try Self.serve(on: bus, held: Awaited())
        defer { connection.stop() }
        // gdbus would convert the argument to the introspected type: busctl sends what it is told.
        let wrong = try run(["/usr/bin/env", "busctl", "--address=\(bus.address)", "call", Self.name, Self.path, Self.interface, "Echo", "i", "7"])
        #expect(wrong.stderr.contains("expected arguments (s), got (i)"))
        #expect(try gdbusCall(bus, Self.interface + ".Nope").stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"))
        #expect(try gdbusCall(bus, "org.sextant.Other.Echo", "x").stderr.contains("org.freedesktop.DBus.Error.UnknownInterface"))
        let elsewhere = try run([
            "/usr/bin/env", "gdbus", "call", "--address", bus.address, "--dest", Self.name, "--object-path", "/org/sextant/None", "--method",
            Self.interface + ".Echo", "x",
        ])
        #expect(elsewhere.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"))
        // The handler drops the call: the client hears an error now, not at its 25 s timeout.
        let dropped = try gdbusCall(bus, Self.interface + ".Forget", "--timeout", "5")
        #expect(dropped.stderr.contains("org.freedesktop.DBus.Error.Failed"))
    }

    @Test("Properties: Get, GetAll and Set from the table; read-only and refused values are named errors")
    func properties() throws {
        let bus = try PrivateBus()
        let (connection, object) = try Self.serve(on: bus, held: Awaited())
        defer { connection.stop() }
        object.set(Self.interface, "Count", .uint32(3))
        let get = try gdbusCall(bus, "org.freedesktop.DBus.Properties.Get", Self.interface, "Count")
        #expect(get.stdout == "(<uint32 3>,)\n")
        let all = try gdbusCall(bus, "org.freedesktop.DBus.Properties.GetAll", Self.interface)
        #expect(all.stdout == "({'Count': <uint32 3>, 'Label': <'start'>, 'Model': <'test'>},)\n")
        #expect(try gdbusCall(bus, "org.freedesktop.DBus.Properties.Set", Self.interface, "Label", "<'new'>").status == 0)
        #expect(object.value(Self.interface, "Label") == .string("new"))
        let refused = try gdbusCall(bus, "org.freedesktop.DBus.Properties.Set", Self.interface, "Label", "<'bad'>")
        #expect(refused.stderr.contains("Label cannot be bad"))
        #expect(object.value(Self.interface, "Label") == .string("new"))
        let readOnly = try gdbusCall(bus, "org.freedesktop.DBus.Properties.Set", Self.interface, "Count", "<uint32 9>")
        #expect(readOnly.stderr.contains("org.freedesktop.DBus.Error.PropertyReadOnly"))
        let wrongType = try gdbusCall(bus, "org.freedesktop.DBus.Properties.Set", Self.interface, "Label", "<uint32 9>")
        #expect(wrongType.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        let otherInterface = try gdbusCall(bus, "org.freedesktop.DBus.Properties.GetAll", "org.sextant.Other")
        #expect(otherInterface.stderr.contains("org.freedesktop.DBus.Error.UnknownInterface"))
        let unknown = try gdbusCall(bus, "org.freedesktop.DBus.Properties.Get", Self.interface, "Nope")
        #expect(unknown.stderr.contains("org.freedesktop.DBus.Error.UnknownProperty"))
    }

    @Test("PropertiesChanged goes out on each change, in order, and a signal with its arguments")
    func propertiesChangedAndSignals() throws {
        let bus = try PrivateBus()
        let (connection, object) = try Self.serve(on: bus, held: Awaited())
        defer { connection.stop() }
        let monitor = try LineReader(["gdbus", "monitor", "--address", bus.address, "--dest", Self.name])
        // gdbus monitor's match may reach the bus after it prints anything: a probe signal,
        // sent again until it is seen (each wait bounded), says the match is in place.
        var probe: (index: Int, line: String, at: UInt64)?
        for _ in 0..<100 where probe == nil {
            object.emit(Self.interface, "Ticked", [.uint32(0)])
            probe = monitor.waitForLine(timeout: 0.2) { $0.contains("Ticked") }
        }
        let start = try #require(probe, "gdbus monitor never saw a signal: \(monitor.allLines)").index
        object.set(Self.interface, "Count", .uint32(1))
        object.set(Self.interface, "Count", .uint32(1))  // unchanged: nothing goes out
        object.set(Self.interface, "Count", .uint32(2))
        object.emit(Self.interface, "Ticked", [.uint32(2)])
        let first = monitor.waitForLine(from: start + 1) { $0.contains("PropertiesChanged") }
        #expect(first?.line.contains("{'Count': <uint32 1>}") == true)
        let second = monitor.waitForLine(from: (first?.index ?? 0) + 1) { $0.contains("PropertiesChanged") }
        #expect(second?.line.contains("{'Count': <uint32 2>}") == true)
        let tick = monitor.waitForLine(from: (second?.index ?? 0) + 1) { $0.contains("Ticked") && $0.contains("(uint32 2,)") }
        #expect(tick?.line.contains("(uint32 2,)") == true, "gdbus monitor printed: \(monitor.allLines)")
    }

    @Test("Introspect lists the table's interfaces as gdbus shows a real service's, and the nodes above them")
    func introspection() throws {
        let bus = try PrivateBus()
        let (connection, _) = try Self.serve(on: bus, held: Awaited())
        defer { connection.stop() }
        let text = try run(["/usr/bin/env", "gdbus", "introspect", "--address", bus.address, "--dest", Self.name, "--object-path", Self.path]).stdout
        #expect(text.contains("interface org.sextant.Test.Counter {"))
        #expect(text.contains("Add(in  i a,\n          in  i b,\n          out i sum);"))
        #expect(text.contains("signals:\n      Ticked(u count);"))
        #expect(text.contains("readonly u Count = 0;"))
        #expect(text.contains("readwrite s Label = 'start';"))
        #expect(text.contains("@org.freedesktop.DBus.Property.EmitsChangedSignal(\"const\")\n      readonly s Model = 'test';"))
        #expect(text.contains("interface org.freedesktop.DBus.Properties {"))
        let root = try run(["/usr/bin/env", "gdbus", "introspect", "--address", bus.address, "--dest", Self.name, "--object-path", "/org/sextant"]).stdout
        #expect(root.contains("node Test {"))
        // Peer is answered by sd-bus itself.
        #expect(try gdbusCall(bus, "org.freedesktop.DBus.Peer.Ping").status == 0)
    }

    @Test("A peer that leaves the bus is reported by its unique name")
    func peerLeaves() throws {
        let bus = try PrivateBus()
        let held = Awaited<String>()
        let left = Awaited<String>()
        let (connection, _) = try Self.serve(on: bus, held: held, left: left)
        defer { connection.stop() }
        let started = Date()
        let hold = try gdbusCall(bus, Self.interface + ".Hold")
        #expect(hold.status == 0, "gdbus call Hold, \(Date().timeIntervalSince(started)) s: \(hold.stderr)")
        let sender = try #require(held.wait())
        #expect(sender.hasPrefix(":"))
        // gdbus has exited: the bus says its name has no owner any more.
        #expect(left.wait() == sender, "\(Date().timeIntervalSince(started)) s after the call")
    }

    @Test("issue 28.3: a NameOwnerChanged from a peer, sent to us alone, is not believed; the bus's own is")
    func forgedNameOwnerChangedIgnored() throws {
        let bus = try PrivateBus()
        let left = Watched<[String]>([])
        let connection = try DBusConnection.connect(.address(bus.address))
        connection.start(onPeerLeft: { name in left.update { $0.append(name) } }, onLost: { _ in })
        defer { connection.stop() }
        // gdbus sends the forged signal, then leaves: the bus's NameOwnerChanged for gdbus
        // itself comes after the forged one on our connection.
        let forged = try run([
            "/usr/bin/env", "gdbus", "emit", "--address", bus.address, "--dest", connection.uniqueName, "--object-path", "/org/freedesktop/DBus",
            "--signal", "org.freedesktop.DBus.NameOwnerChanged", ":1.999", ":1.999", "",
        ])
        #expect(forged.status == 0, "\(forged.stderr)")
        let heard = try #require(left.wait(timeout: 10) { $0.isEmpty ? nil : $0 }, "gdbus leaving the bus was not reported")
        #expect(!heard.contains(":1.999"), "\(heard)")
    }

    @Test("issue 28.4: a string longer than a peer may set is refused, naming the property and the limit; nothing is stored")
    func longStringsRefused() throws {
        let bus = try PrivateBus()
        let (connection, object) = try Self.serve(on: bus, held: Awaited())
        defer { connection.stop() }
        let long = String(repeating: "x", count: 4097)
        let refused = try gdbusCall(bus, "org.freedesktop.DBus.Properties.Set", Self.interface, "Label", "<'\(long)'>")
        #expect(refused.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs: \(Self.interface).Label: a string of 4097 bytes; at most 4096 are taken"), "\(refused.stderr)")
        #expect(object.value(Self.interface, "Label") == .string("start"))
        let argument = try gdbusCall(bus, Self.interface + ".Echo", long)
        #expect(argument.stderr.contains("argument 1 of \(Self.interface).Echo: a string of 4097 bytes; at most 4096 are taken"), "\(argument.stderr)")
        let longest = String(repeating: "x", count: 4096)
        #expect(try gdbusCall(bus, Self.interface + ".Echo", longest).stdout == "('\(longest)',)\n")
    }

    @Test("Losing the bus is reported once, and the connection lets go of it")
    func busLost() throws {
        let bus = try PrivateBus()
        let lost = Awaited<String>()
        let (connection, object) = try Self.serve(on: bus, held: Awaited(), lost: lost)
        bus.stop()
        let reason = try #require(lost.wait())
        #expect(reason.contains("the connection to the"))
        connection.stop()
        // Detached: setting values still works, nothing is sent.
        object.set(Self.interface, "Count", .uint32(5))
        #expect(object.value(Self.interface, "Count") == .uint32(5))
    }

    @Test("A name another connection owns is refused with a message naming it")
    func nameTaken() throws {
        let bus = try PrivateBus()
        let (connection, _) = try Self.serve(on: bus, held: Awaited())
        defer { connection.stop() }
        let second = try DBusConnection.connect(.address(bus.address))
        #expect(throws: DBusError.self) { try second.requestName(Self.name) }
        do { try second.requestName(Self.name) } catch { #expect(error.message.contains("cannot own org.sextant.Test")) }
        second.start(onPeerLeft: { _ in }, onLost: { _ in })
        second.stop()
    }

    @Test("--dbus takes system, session or a D-Bus address", arguments: [
        ("system", DBusBusAddress.system), ("session", .session), ("unix:path=/run/bus", .address("unix:path=/run/bus")),
    ])
    func addresses(text: String, expected: DBusBusAddress) {
        #expect(DBusBusAddress(parsing: text) == expected)
    }

    @Test("--dbus refuses what is no bus address", arguments: ["", "sys", ":x=1", "unix", "unix:"])
    func badAddresses(text: String) {
        #expect(DBusBusAddress(parsing: text) == nil)
    }
}
