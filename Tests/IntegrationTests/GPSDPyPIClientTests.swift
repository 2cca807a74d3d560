import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// gpsd client libraries from PyPI against the gpsd face (issue 42.1, docs/compatibility.md),
/// installed by Tools/ci/setup-pypi-clients.sh in .build/pypi-gpsd-clients.
enum PyPIGPSDClients {
    static let python = Repository.root + "/.build/pypi-gpsd-clients/bin/python3"

    static let requirement = Requirement("needs gps3 and gpsdclient from PyPI (bash Tools/ci/setup-pypi-clients.sh)") {
        FileManager.default.isExecutableFile(atPath: python) && (try? run([python, "-c", "import gps3, gpsdclient"]))?.status == 0
    }
}

@Suite("gpsd face: PyPI gpsd clients", .serialized, .requires(PyPIGPSDClients.requirement))
struct GPSDPyPIClientTests {
    /// gps3 as its own documentation uses it: `watch()` sends
    /// `?WATCH={"enable":true,"json":true}` with no `;` and no newline; each line read is
    /// unpacked by its `DataStream` (which passes over what it cannot parse: gps3 reads a
    /// line through a new file object each time and can lose the rest of a read, with
    /// gpsd as with Sextant); it stops at the first TPV with a position. So the log plays at
    /// 10×, a cycle's reports written apart from the next one's, each write beginning with
    /// its TPV: at `max` many cycles are written at once, gps3's next read begins inside a
    /// line it cannot parse, and whether it ever sees a TPV whole depends on how fast it
    /// reads (it failed so once on a loaded machine).
    static let gps3Client = """
        import sys
        from importlib.metadata import version
        from gps3 import gps3
        print("gps3", version("gps3"), flush=True)
        socket = gps3.GPSDSocket()
        socket.connect(host="127.0.0.1", port=int(sys.argv[1]))
        socket.watch()
        stream = gps3.DataStream()
        while True:
            line = socket.next(timeout=1)
            if line:
                stream.unpack(line)
                if stream.TPV["lat"] != "n/a":
                    print("TPV", stream.TPV["lat"], stream.TPV["lon"], flush=True)
                    break
        """

    @Test("issue 42.1: Python's gps3 0.33.3, whose ?WATCH has no terminator, is watching at once and gets positions")
    func gps3GetsPositions() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["python3"])
        let script = try daemon.write("gps3_client.py", Self.gps3Client)
        let client = try ClientProcess([PyPIGPSDClients.python, script, String(try daemon.gpsdFacePort())], directory: daemon.directory, name: "gps3")
        try client.waitForLine("gps3 0.33.3")
        try daemon.waitForGPSDWatchers(1)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(GPSDLog.path("haicom-305N.log")), "speed": 10])
        #expect(try client.exitStatus(timeout: 60) == 0, "\(client.output())\(client.errors())")
        #expect(client.output().split(whereSeparator: \.isNewline).last?.hasPrefix("TPV -27.") == true, "\(client.output())")
    }

    /// gpsdclient as its README uses it: `dict_stream(convert_datetime=True, filter=["TPV"])`
    /// after its `?WATCH={…}` and a newline; it refuses a stream that does not start with
    /// gpsd's VERSION, and turns TPV's `time` into a datetime only when it has gpsd's
    /// fractional seconds.
    static let gpsdclientScript = """
        import sys
        from datetime import datetime
        from importlib.metadata import version
        from gpsdclient import GPSDClient
        print("gpsdclient", version("gpsdclient"), flush=True)
        client = GPSDClient(host="127.0.0.1", port=int(sys.argv[1]), timeout=60)
        for tpv in client.dict_stream(convert_datetime=True, filter=["TPV"]):
            if "lat" in tpv:
                time = tpv["time"]
                print("TPV", tpv["lat"], tpv["lon"], time.isoformat() if isinstance(time, datetime) else "unparsed " + repr(time), flush=True)
                break
        """

    @Test("Python's gpsdclient 1.3.2 (another author's) passes its VERSION check and gets positions with TPV times it parses")
    func gpsdclientGetsPositions() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["python3"])
        let script = try daemon.write("gpsdclient_client.py", Self.gpsdclientScript)
        let client = try ClientProcess([PyPIGPSDClients.python, script, String(try daemon.gpsdFacePort())], directory: daemon.directory, name: "gpsdclient")
        try client.waitForLine("gpsdclient 1.3.2")
        try daemon.waitForGPSDWatchers(1)
        try daemon.replayAtMax(GPSDLog.path("haicom-305N.log"))
        #expect(try client.exitStatus(timeout: 60) == 0, "\(client.output())\(client.errors())")
        // haicom-305N.log starts on 2007-04-08 at 09:53, south of Brisbane.
        let last = client.output().split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        #expect(last.hasPrefix("TPV -27.") && last.contains(" 2007-04-08T09:5") && last.hasSuffix("+00:00"), "\(client.output())")
    }
}
