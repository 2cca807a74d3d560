import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 21.4: the gpsd face's heading, read by gpsd's own clients: TPV `magtrack` and
/// `magvar`, and the ATT report, to clients that may have locations and to no other.
@Suite("gpsd face: magtrack, magvar and ATT", .serialized, .requires(GPSDClients.requirement))
struct GPSDFaceHeadingTests {
    /// Three fixes in New Hampshire (declination about 14.6° west in 2026, where gpsd itself
    /// says `magvar` -15.8 for humminbird-M37.log), each followed by a magnetometer reading.
    static let trace = """
        {"sextant":"trace","version":1,"start":"2026-05-02T19:41:00.000Z"}
        {"t":0.0,"location":{"lat":44.435216667,"lon":-71.675993333,"hAcc":5,"speed":2.7,"course":77.3}}
        {"t":0.1,"magnet":{"x":22.5,"y":5.25,"z":-40.125}}
        {"t":1.0,"location":{"lat":44.43523,"lon":-71.67590,"hAcc":5,"speed":2.7,"course":77.0}}
        {"t":1.1,"magnet":{"x":20.0,"y":-6.5,"z":-41.0}}
        {"t":2.0,"location":{"lat":44.43524,"lon":-71.67580,"hAcc":5,"speed":2.7,"course":76.8}}
        {"t":2.1,"magnet":{"x":-3.0,"y":21.0,"z":-40.5}}

        """
    static let courses = [77.3, 77.0, 76.8]
    static let fields = [[22.5, 5.25, -40.125], [20.0, -6.5, -41.0], [-3.0, 21.0, -40.5]]

    /// The model's declination at the trace's first fix, east positive.
    static let declination = WorldMagneticModel.wmm2025.elements(
        latitude: 44.435216667, longitude: -71.675993333, height: 0, year: WorldMagneticModel.decimalYear(Timestamp(rfc3339: "2026-05-02T19:41:00Z")!)
    ).declination

    @Test("issue 21.4: gpspipe -w and Python's gps get TPV magtrack/magvar and ATT heading, mheading, mag_st, mag_x/y/z with the trace's values; an unauthorized client gets no ATT")
    func realClientsReadHeading() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["gpspipe", "python3"])
        let port = try daemon.gpsdFacePort()
        let script = """
            import gps, json, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1])
            session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON)
            seen = 0
            for report in session:
                if report["class"] == "ATT":
                    print(json.dumps({k: report[k] for k in report.keys()}), flush=True)
                    seen += 1
                    if seen == 3:
                        break
            """
        _ = try daemon.write("att.py", script)
        let path = try daemon.write("heading.jsonl", Self.trace)
        // gpspipe runs until stopped: it prints SKYs (N8, G6) between the TPVs and ATTs.
        let gpspipe = try ClientProcess([GPSDClients.gpspipe, "-w", "127.0.0.1:\(port)"], directory: daemon.directory, name: "gpspipe")
        let python = try ClientProcess([GPSDClients.python, daemon.directory + "/att.py", String(port)], directory: daemon.directory, name: "python")
        let denied = try GPSDFaceClient(port: port)
        denied.send(#"?WATCH={"enable":true,"json":true};"#)
        try daemon.waitForGPSDWatchers(3)

        try daemon.replayAtMax(path)
        let reports = try gpspipe.waitForOutput(timeout: 60, "print three TPVs and three ATTs") { output -> [JSONValue]? in
            let reports = output.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }
            return reports.filter(\.isPositionTPV).count >= 3 && reports.filter({ $0["class"] == "ATT" }).count >= 3 ? reports : nil
        }
        let tpvs = reports.filter(\.isPositionTPV)
        let atts = reports.filter { $0["class"] == "ATT" }
        #expect(tpvs.count == 3 && atts.count == 3, "\(reports)")
        for (tpv, course) in zip(tpvs, Self.courses) {
            let magvar = tpv["magvar"]?.doubleValue ?? .nan
            #expect(tpv["track"]?.doubleValue == course)
            #expect(abs(magvar - Self.declination) <= 0.051 && (-16 ... -13).contains(magvar), "west declination is negative, as gpsd writes it: \(tpv)")
            #expect(abs((tpv["magtrack"]?.doubleValue ?? .nan) - (course - Self.declination)) < 0.001, "\(tpv)")
        }
        for (att, field) in zip(atts, Self.fields) {
            let trueHeading = att["heading"]?.doubleValue ?? .nan, magnetic = att["mheading"]?.doubleValue ?? .nan
            #expect(abs(HeadingMath.normalized(trueHeading - magnetic) - HeadingMath.normalized(Self.declination)) < 0.002, "\(att)")
            #expect([att["mag_x"], att["mag_y"], att["mag_z"]].map { $0?.doubleValue ?? .nan } == field, "\(att)")
            #expect(att["mag_st"] == "N" && att["device"] == "/dev/sextant0", "\(att)")
        }
        let pythonATTs = try python.finish(timeout: 60).compactMap { try? JSONValue.parse($0) }
        #expect(pythonATTs.map { $0["mheading"] } == atts.map { $0["mheading"] }, "\(pythonATTs)")
        #expect(pythonATTs.map { $0["heading"] } == atts.map { $0["heading"] }, "\(pythonATTs)")

        // Everything the unauthorized client was sent came before its POLL's answer.
        try daemon.waitForStatus("the replay to finish", timeout: 30) { $0["replay"]?["state"] == "finished" }
        denied.send("?POLL;")
        let deniedReports = try denied.reports(until: { $0["class"] == "POLL" })
        #expect(!deniedReports.contains { $0["class"] == "ATT" || $0.isPositionTPV }, "\(deniedReports)")
        #expect(deniedReports.contains { $0.isNoFixTPV }, "\(deniedReports)")
    }
}
