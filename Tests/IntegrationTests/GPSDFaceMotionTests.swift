import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 40.7: the gpsd face's ATT of the fused attitude, read by gpsd's own clients.
@Suite("gpsd face: ATT of the attitude", .serialized, .requires(GPSDClients.requirement))
struct GPSDFaceMotionTests {
    /// A phone flat, top to magnetic north, read turning to its left at 0.5 rad/s (its
    /// readings held still: the fusion's yaw moves little in a second), every 0.2 s.
    static let trace: String = {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-05-02T19:41:00.000Z"}"#]
        for n in 0...5 {
            let t = Double(n) * 0.2
            lines.append(#"{"t":\#(t),"magnet":{"x":0,"y":21,"z":-42}}"#)
            lines.append(#"{"t":\#(t),"accel":{"x":0,"y":0,"z":9.80665}}"#)
            lines.append(#"{"t":\#(t),"gyro":{"x":0,"y":0,"z":0.5}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test("issue 40.7: gpspipe -w and Python's gps get ATTs with gyro_x/y/z in °/s, acc_x/y/z, pitch, roll and yaw, one a gyroscope reading 0.2 s apart")
    func realClientsReadTheAttitude() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["gpspipe", "python3"])
        let port = try daemon.gpsdFacePort()
        let script = """
            import gps, json, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1])
            session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON)
            seen = 0
            for report in session:
                if report["class"] == "ATT" and "gyro_x" in report:
                    print(json.dumps({k: report[k] for k in report.keys()}), flush=True)
                    seen += 1
                    if seen == 6:
                        break
            """
        _ = try daemon.write("att.py", script)
        let path = try daemon.write("turn.jsonl", Self.trace)
        let gpspipe = try ClientProcess([GPSDClients.gpspipe, "-w", "127.0.0.1:\(port)"], directory: daemon.directory, name: "gpspipe")
        let python = try ClientProcess([GPSDClients.python, daemon.directory + "/att.py", String(port)], directory: daemon.directory, name: "python")
        try daemon.waitForGPSDWatchers(2)

        try daemon.replayAtMax(path)
        let atts = try gpspipe.waitForOutput(timeout: 60, "print six ATTs of the attitude") { output -> [JSONValue]? in
            let reports = output.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }
            let atts = reports.filter { $0["class"] == "ATT" && $0["gyro_z"] != nil }
            return atts.count >= 6 ? atts : nil
        }
        #expect(atts.map { $0["time"]?.stringValue ?? "" } == (0...5).map { "2026-05-02T19:41:0\($0 / 5).\(($0 % 5) * 2)00Z" }, "\(atts)")
        for att in atts {
            #expect(att["gyro_x"] == 0.0 && att["gyro_y"] == 0.0 && att["gyro_z"] == 28.648, "0.5 rad/s: \(att)")
            #expect(att["acc_x"] == 0.0 && att["acc_y"] == 0.0 && att["acc_z"] == 9.807, "\(att)")
            #expect(abs(att["pitch"]?.doubleValue ?? 99) < 0.01 && abs(att["roll"]?.doubleValue ?? 99) < 0.01, "flat: \(att)")
            #expect(HeadingMath.separation(att["yaw"]?.doubleValue ?? 180, 0) < 30, "top near magnetic north: \(att)")
            #expect(att["device"] == "/dev/sextant0")
        }
        let pythonATTs = try python.finish(timeout: 60).compactMap { try? JSONValue.parse($0) }
        #expect(pythonATTs.map { $0["gyro_z"] } == atts.map { $0["gyro_z"] }, "\(pythonATTs)")
        #expect(pythonATTs.map { $0["yaw"] } == atts.map { $0["yaw"] }, "\(pythonATTs)")
    }
}
