import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Tools/packaging/dbus/sextant.conf in a real dbus-daemon configured as Debian's system bus is
/// (nobody owns a name or calls a method unless a policy file says so).
@Suite("D-Bus deployment: the policy file on a system-type bus")
struct DBusDeploymentTests {
    /// A system-type bus with Debian's default policy and the policy file under test.
    static func systemTypeBus(_ directory: String) throws -> (PrivateBus, String) {
        let socket = directory + "/system_bus_socket"
        let config = directory + "/system.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <deny own="*"/>
            <deny send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
            <allow receive_type="signal"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
          </policy>
          <include>\(Repository.root)/Tools/packaging/dbus/sextant.conf</include>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let bus = try PrivateBus(
            ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
            refusal: "dbus-daemon refused the configuration with Tools/packaging/dbus/sextant.conf")
        return (bus, "unix:path=\(socket)")
    }

    @Test("Root's sextantd owns net.hadess.SensorProxy; another user may call it but not own it", .requires(.root("sextantd owns the name as root, the client runs as uid 65534")))
    func policy() throws {
        let scratch = try TemporaryDirectory("policy", mode: 0o755)
        let directory = scratch.path
        let (bus, address) = try Self.systemTypeBus(directory)
        defer { bus.stop() }
        let daemon = try DaemonHarness(arguments: ["--dbus", address])
        try daemon.waitForStatus("the names held") { $0["dbus"]?["names"]?.arrayValue?.contains("net.hadess.SensorProxy") == true }
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/gdbus", "call", "--address", address]
        let get = try run(
            nobody + [
                "--dest", "net.hadess.SensorProxy", "--object-path", "/net/hadess/SensorProxy", "--method",
                "org.freedesktop.DBus.Properties.Get", "net.hadess.SensorProxy", "HasAccelerometer",
            ])
        #expect(get.stdout == "(<true>,)\n", "\(get.stderr)")
        let own = try run(
            nobody + [
                "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus", "--method",
                "org.freedesktop.DBus.RequestName", "org.freedesktop.GeoClue2", "uint32 0",
            ])
        #expect(own.stderr.contains("AccessDenied"), "\(own.stdout) \(own.stderr)")
        _ = daemon
    }
}
