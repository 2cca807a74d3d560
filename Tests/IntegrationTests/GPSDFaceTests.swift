import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Sextant as gpsd: unmodified gpsd clients (gpspipe, Python's `gps`, a libgps program)
/// on `--gpsd-listen`, under the same rules as apps on app.sock (docs/gpsd.md).
@Suite(
    "gpsd face (gpsd clients)", .serialized,
    .requires(GPSDClients.requirement))
struct GPSDFaceTests {
    /// 325 sentences: a long stretch without fix, then 68 fixes with times.
    static let log = "haicom-305N.log"

    private func expectSamePositions(_ got: [(lat: Double, lon: Double)], as expected: [JSONValue], _ who: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == expected.count, "\(who): \(got.count) positions, the app got \(expected.count)", sourceLocation: sourceLocation)
        for (index, (position, location)) in zip(got, expected).enumerated() {
            let lat = location["lat"]?.doubleValue ?? .nan, lon = location["lon"]?.doubleValue ?? .nan
            #expect(abs(position.lat - lat) <= 1e-6 && abs(position.lon - lon) <= 1e-6, "\(who) fix \(index): \(position) vs \(location)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "docs/security.md: a gpsd client's app id is bound to the uid that first used it; another uid's client of that name gets ERROR and no session",
        .requires(.root("running a client as another uid")))
    func appIDBoundToUID() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowAlways"])
        let port = try daemon.gpsdFacePort()
        let mine = try run([GPSDClients.gpspipe, "-w", "-n", "3", "127.0.0.1:\(port)"])
        #expect(mine.status == 0 && mine.stdout.contains(#""class":"WATCH""#), "\(mine.stdout)\(mine.stderr)")
        #expect(try daemon.control().call(Method.permissionsOwners).arrayValue?.contains { $0["app"] == "gpsd.gpspipe" && $0["uid"] == 0 } == true)

        let theirs = try run(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", GPSDClients.gpspipe, "-w", "-n", "3", "127.0.0.1:\(port)"])
        let reports = theirs.stdout.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }
        #expect(reports.contains { $0["class"] == "ERROR" && $0["message"]?.stringValue?.contains("belongs to uid 0") == true }, "\(theirs.stdout)")
        #expect(!reports.contains { $0["class"] == "WATCH" || $0["class"] == "TPV" }, "\(theirs.stdout)")
        #expect(try daemon.gpsdSessions().isEmpty)
    }

    @Test("G1: the banner, ?VERSION, ?DEVICES, ?WATCH and ERROR for unknown or malformed requests, the connection kept; apps list shows the client as gpsd.<comm> with its pid")
    func protocolBasics() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        let client = try GPSDFaceClient(port: try daemon.gpsdFacePort())
        let banner = try client.nextReport()
        #expect(banner["class"] == "VERSION" && banner["proto_major"] == 3 && banner["proto_minor"] == 14 && banner["release"] == "3.22")
        client.send("?VERSION;\n")
        #expect(try client.nextReport()["class"] == "VERSION")
        client.send("?DEVICES;\n")
        let devices = try client.nextReport()
        #expect(devices["class"] == "DEVICES")
        #expect(devices["devices"]?.arrayValue?.map { $0["path"] } == ["/dev/sextant0"])
        #expect(devices["devices"]?.arrayValue?.first?["subtype"] == "sextant manual")
        client.send("?FOO;\n")
        #expect(try client.nextReport()["class"] == "ERROR")
        client.send("?WATCH={\"enable\":tru;\n")
        let malformed = try client.nextReport()
        #expect(malformed["class"] == "ERROR" && malformed["message"]?.stringValue?.hasPrefix("Invalid WATCH") == true)
        client.send("?WATCH={\"enable\":true,\"device\":\"/dev/ttyUSB9\"};\n")
        #expect(try client.nextReport()["message"] == "No such device as /dev/ttyUSB9")
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        #expect(try client.nextReport()["class"] == "DEVICES")
        let watch = try client.nextReport()
        #expect(watch["class"] == "WATCH" && watch["enable"] == true && watch["json"] == true && watch["nmea"] == false)

        let sessions = try daemon.gpsdSessions()
        #expect(sessions.count == 1)
        #expect(sessions.first?["app"]?.stringValue == "gpsd." + ownCommand())
        #expect(sessions.first?["pid"]?.intValue == Int(getpid()))
        #expect(sessions.first?["uid"]?.intValue == Int(getuid()))
        #expect(sessions.first?["state"] == "foreground")
        let status = try daemon.ctl(["status"])
        #expect(status.stdout.contains("gpsd face:         127.0.0.1:\(try daemon.gpsdFacePort())"), "status: \(status.stdout)")
    }

    @Test("issue 43.11: the libgps program the tests build is left in the build folder, not in TMPDIR after every run")
    func libgpsReaderOutsideTMPDIR() throws {
        let reader = try GPSDClients.libgpsReader.get()
        #expect(FileManager.default.isExecutableFile(atPath: reader))
        #expect(reader.hasPrefix(Repository.root + "/.build/"), "\(reader)")
        let temporary = (NSTemporaryDirectory() as NSString).standardizingPath
        #expect(!(reader as NSString).standardizingPath.hasPrefix(temporary + "/"), "\(reader) is under TMPDIR \(temporary)")
    }

    @Test("L1/L10: gpspipe -w, Python's gps module and a libgps program get the same positions (within 1e-6°) as an app on app.sock from the same replay")
    func realClientsSamePositions() throws {
        let reader = try GPSDClients.libgpsReader.get()
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["gpspipe", "python3", "libgps-reader"])
        let port = try daemon.gpsdFacePort()
        let app = try daemon.streamingApp("com.example.reference")
        let script = """
            import gps, sys
            session = gps.gps(host="127.0.0.1", port=sys.argv[1])
            session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON)
            wanted, got = int(sys.argv[2]), 0
            for report in session:
                if report["class"] == "TPV" and "lat" in report:
                    print("%.9f %.9f" % (report["lat"], report["lon"]), flush=True)
                    got += 1
                    if got == wanted:
                        break
            """
        _ = try daemon.write("client.py", script)
        let expectedFixes = try locationCount(GPSDLog.path(Self.log))
        let gpspipe = try ClientProcess([GPSDClients.gpspipe, "-w", "127.0.0.1:\(port)"], directory: daemon.directory, name: "gpspipe")
        let python = try ClientProcess([GPSDClients.python, daemon.directory + "/client.py", String(port), String(expectedFixes)], directory: daemon.directory, name: "python")
        let libgps = try ClientProcess([reader, "127.0.0.1", String(port), String(expectedFixes), "20"], directory: daemon.directory, name: "libgps")
        try daemon.waitForGPSDWatchers(3)
        #expect(Set(try daemon.gpsdSessions().compactMap { $0["app"]?.stringValue }) == ["gpsd.gpspipe", "gpsd.python3", "gpsd.libgps-reader"])

        try daemon.replayAtMax(GPSDLog.path(Self.log))
        let expected = try app.locations(expectedFixes)
        // gpspipe runs until stopped: it prints the log's SKYs (N8) between the TPVs.
        let pipeTPVs = try gpspipe.waitForOutput(timeout: 60, "print every TPV") { output -> [JSONValue]? in
            let tpvs = output.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }.filter(\.isPositionTPV)
            return tpvs.count >= expectedFixes ? tpvs : nil
        }
        let pipeLines = gpspipe.output().split(whereSeparator: \.isNewline)
        #expect(pipeTPVs.count == expectedFixes, "gpspipe printed: \(pipeLines.prefix(8))")
        expectSamePositions(pipeTPVs.map { ($0["lat"]!.doubleValue!, $0["lon"]!.doubleValue!) }, as: expected, "gpspipe")
        #expect(pipeTPVs.map { $0["time"] } == expected.map { $0["time"] }, "gpspipe: the log's own times")
        let pythonLines = try python.finish(timeout: 60).map { $0.split(separator: " ").compactMap { Double($0) } }
        expectSamePositions(pythonLines.map { ($0[0], $0[1]) }, as: expected, "python3-gps")
        let libgpsLines = try libgps.finish(timeout: 60).filter { $0.hasPrefix("FIX ") }.map { $0.split(separator: " ") }
        expectSamePositions(libgpsLines.map { (Double($0[2]) ?? .nan, Double($0[3]) ?? .nan) }, as: expected, "libgps")
    }

    @Test("gpspipe -r gets RMC, GGA and GSA with correct checksums, whose positions are the app's")
    func nmeaSentences() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["gpspipe"])
        let app = try daemon.streamingApp("com.example.reference")
        let fixes = try locationCount(GPSDLog.path(Self.log))
        let gpspipe = try ClientProcess(
            [GPSDClients.gpspipe, "-r", "-n", String(3 + 3 * fixes), "127.0.0.1:\(try daemon.gpsdFacePort())"], directory: daemon.directory, name: "gpspipe")
        try daemon.waitForGPSDWatchers(1)
        try daemon.replayAtMax(GPSDLog.path(Self.log))
        let expected = try app.locations(fixes)
        let sentences = try gpspipe.finish(timeout: 60).filter { $0.hasPrefix("$") }
        #expect(sentences.count == 3 * fixes)
        for sentence in sentences {
            let parts = sentence.dropFirst().split(separator: "*")
            let checksum = parts.first.map { $0.utf8.reduce(UInt8(0), ^) }
            #expect(parts.count == 2 && checksum == UInt8(parts[1], radix: 16), "checksum of \(sentence)")
        }
        #expect(Set(sentences.map { $0.prefix(6) }) == ["$GPRMC", "$GPGGA", "$GPGSA"])
        let positions = sentences.filter { $0.hasPrefix("$GPRMC") }.map { sentence -> (lat: Double, lon: Double) in
            let f = sentence.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            func degrees(_ text: String, _ degreeDigits: Int, _ hemisphere: String) -> Double {
                let whole = Double(text.prefix(degreeDigits)) ?? .nan, minutes = Double(text.dropFirst(degreeDigits)) ?? .nan
                return (whole + minutes / 60) * (hemisphere == "S" || hemisphere == "W" ? -1 : 1)
            }
            return (degrees(f[3], 2, f[4]), degrees(f[5], 3, f[6]))
        }
        expectSamePositions(positions, as: expected, "gpspipe -r (RMC)")
    }

    @Test("L4/L12/G3/G4: ?WATCH is the authorization request (level always): unauthorized the client gets TPV mode 1 and never a position; prompts answer lets positions through")
    func unauthorizedThenAnswered() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        let app = try daemon.streamingApp("com.example.reference")
        let client = try GPSDFaceClient(port: try daemon.gpsdFacePort())
        client.send(#"?WATCH={"enable":true,"json":true,"nmea":true};"# + "\n")
        _ = try client.nextReport { $0["class"] == "WATCH" }
        #expect(try client.nextReport().isNoFixTPV, "no fix until authorized")
        let prompts = try daemon.control().call(Method.promptsList).arrayValue ?? []
        #expect(prompts.count == 1 && prompts.first?["app"] == .string("gpsd." + ownCommand()) && prompts.first?["level"] == "always")

        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 20, step: 1))
        try daemon.replayAtMax(trace)
        _ = try app.locations(20)
        client.send("?POLL;\n")
        let before = try client.reports { $0["class"] == "POLL" }
        #expect(!before.contains { $0.isPositionTPV }, "no position while unauthorized: \(before)")
        #expect(before.last?["tpv"]?.arrayValue?.allSatisfy { $0["lat"] == nil } == true)

        _ = try daemon.control().call(Method.promptsAnswer, ["id": prompts[0]["id"]!, "choice": "allowAlways"])
        try daemon.replayAtMax(trace)
        let after = try client.reports { $0.isPositionTPV }
        #expect(after.last?["device"] == "/dev/sextant0")
    }

    /// Ways the control side takes locations away from an app.
    enum Cutoff: String, CaseIterable, CustomTestStringConvertible {
        case revoke, servicesOff
        var testDescription: String { rawValue }
    }

    @Test("L1/L9/G4: revoke or services off mid-stream cuts a gpsd client off: after the control call's answer, a no-fix TPV, then not one position", arguments: Cutoff.allCases)
    func cutOffMidStream(_ cutoff: Cutoff) throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowAlways"])
        let client = try GPSDFaceClient(port: try daemon.gpsdFacePort())
        client.send(#"?WATCH={"enable":true,"json":true,"nmea":true};"# + "\n")
        _ = try client.nextReport { $0["class"] == "WATCH" }
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 4000, step: 0.05))
        _ = try daemon.control().call(Method.replayStart, ["path": .string(trace), "speed": 20])
        for _ in 0..<5 { _ = try client.nextReport { $0.isPositionTPV } }
        switch cutoff {
        case .revoke: _ = try daemon.control().call(Method.permissionsSet, ["app": .string("gpsd." + ownCommand()), "status": "denied"])
        case .servicesOff: _ = try daemon.control().call(Method.servicesSet, ["enabled": false])
        }
        // Positions written before the revoke may still be in flight; the no-fix TPV marks its point.
        do {
            _ = try client.reports { $0.isNoFixTPV }
        } catch {
            Issue.record("\(error); sessions: \(try daemon.gpsdSessions()); log:\n\(daemon.log())")
            return
        }
        client.send("?POLL;\n")
        var seen = 0
        while true {
            let line = try client.nextLine(timeout: 10)
            #expect(!line.hasPrefix("$"), "an NMEA sentence after the revoke: \(line)")
            guard let report = try? JSONValue.parse(line) else { continue }
            #expect(!report.isPositionTPV, "a position after the revoke: \(line)")
            seen += 1
            if report["class"] == "POLL" {
                #expect(report["tpv"]?.arrayValue?.allSatisfy { $0["lat"] == nil } == true)
                break
            }
        }
        let replay = try daemon.control().call(Method.replayStatus)
        #expect(replay["state"] == "running", "the replay was still going while the client read: \(replay)")
    }

    @Test("L5/L8/G2: an allowOnce gpsd client sent to the background by the control side is cut off at once, and its grant lapses")
    func allowOnceBackgroundCutOff() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowOnce", "--allow-once-timeout", "3"])
        let client = try GPSDFaceClient(port: try daemon.gpsdFacePort())
        let app = "gpsd." + ownCommand()
        client.send(#"?WATCH={"enable":true,"json":true,"nmea":true};"# + "\n")
        _ = try client.nextReport { $0["class"] == "WATCH" }
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 4000, step: 0.05))
        _ = try daemon.control().call(Method.replayStart, ["path": .string(trace), "speed": 20])
        for _ in 0..<3 { _ = try client.nextReport { $0.isPositionTPV } }
        #expect(try daemon.ctl(["apps", "background", app]).status == 0)
        _ = try client.reports { $0.isNoFixTPV }
        // The cut-off came with the move (L8), not with the grant's lapse 3 s later (L5).
        let grants = try daemon.control().call(Method.permissionsList).arrayValue ?? []
        #expect(grants.contains { $0["app"] == .string(app) && $0["allowOnce"] == true }, "\(grants)")
        try daemon.waitForStatus("the allowOnce grant to lapse", timeout: 10) { _ in
            ((try? daemon.control().call(Method.permissionsList).arrayValue) ?? []).allSatisfy { $0["app"] != .string(app) }
        }
        #expect(try daemon.ctl(["apps", "foreground", app]).status == 0)
        let events = try daemon.control().call(Method.replayStatus)["events"]?.intValue ?? 0
        try daemon.waitForStatus("more fixes published", timeout: 10) { status in (status["replay"]?["events"]?.intValue ?? 0) > events + 10 }
        client.send("?POLL;\n")
        while true {
            let line = try client.nextLine(timeout: 10)
            #expect(!line.hasPrefix("$"), "an NMEA sentence after the cut-off: \(line)")
            guard let report = try? JSONValue.parse(line) else { continue }
            #expect(!report.isPositionTPV, "a position after the cut-off: \(line)")
            if report["class"] == "POLL" { break }
        }
    }

    @Test("L10/G5: reduced accuracy sends the 2 km grid position the app was given, with eph of the reduced accuracy")
    func reducedAccuracy() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowAlways", "--approximate"])
        let client = try GPSDFaceClient(port: try daemon.gpsdFacePort())
        let app = "gpsd." + ownCommand()
        let watcher = try daemon.control()
        _ = try watcher.call(Method.watch, ["app": .string(app), "topics": ["location"]])
        client.send(#"?WATCH={"enable":true,"json":true};"# + "\n")
        _ = try client.nextReport { $0["class"] == "WATCH" }
        // The policy's decision is stored and applied after the WATCH is answered: a replay of
        // 30 fixes at max could be over before it, and the app would be owed no fix.
        try daemon.waitForStatus("the policy's grant to the gpsd client", timeout: 10) { _ in
            ((try? daemon.control().call(Method.permissionsList).arrayValue) ?? []).contains { $0["app"] == .string(app) }
        }
        // 3 km north in 30 steps: the grid's 2 km cells change at least once.
        try daemon.replayAtMax(try daemon.write("north.jsonl", syntheticTrace(count: 30, step: 0.001)))
        let delivered = try watcher.nextEvent(timeout: 10, description: "the app's first location") { $0.method == Event.location }.params
        let tpv = try client.nextReport { $0.isPositionTPV }
        #expect(delivered["accuracy"] == "reduced")
        #expect(abs((tpv["lat"]?.doubleValue ?? 0) - (delivered["lat"]?.doubleValue ?? 1)) <= 1e-6)
        #expect(abs((tpv["lon"]?.doubleValue ?? 0) - (delivered["lon"]?.doubleValue ?? 1)) <= 1e-6)
        #expect(tpv["eph"]?.doubleValue == delivered["hAcc"]?.doubleValue && (tpv["eph"]?.doubleValue ?? 0) >= 2000)
    }

    @Test(
        "side by side: the same NMEA log through the real gpsd and through Sextant's gpsd face, read by the same libgps program, gives the same fixes",
        .requires(GPSDBinary.requirement))
    func sideBySideWithRealGPSD() throws {
        let reader = try GPSDClients.libgpsReader.get()
        let path = GPSDLog.path(Self.log)
        let count = try locationCount(path)
        let gpsd = try GPSDProcess()
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["libgps-reader"])
        // gpsd sends several TPVs per cycle of sentences, Sextant one fix per cycle: gpsd's
        // answer for a cycle is its last TPV of that time (NMEAReferenceTests states the rule).
        let viaGPSD = try ClientProcess([reader, "127.0.0.1", String(gpsd.port), String(try GPSDLog.tpvCount(Self.log)), "20"], directory: daemon.directory, name: "via-gpsd")
        try viaGPSD.waitForLine("READY")  // gpsd sends only to clients already watching
        try gpsd.feed(path)
        let viaSextant = try ClientProcess([reader, "127.0.0.1", String(try daemon.gpsdFacePort()), String(count), "20"], directory: daemon.directory, name: "via-sextant")
        try daemon.waitForGPSDWatchers(1)
        try daemon.replayAtMax(path)

        var gpsdCycles: [Int64: [Substring]] = [:]
        for line in try viaGPSD.finish(timeout: 60) where line.hasPrefix("FIX ") || line.hasPrefix("NOFIX ") {
            let fields = line.split(separator: " ")
            gpsdCycles[Self.millisecondOfDay(fields[fields.count == 3 ? 2 : 4])] = fields
        }
        let sextantFixes = try viaSextant.finish(timeout: 60).filter { $0.hasPrefix("FIX ") }.map { $0.split(separator: " ") }
        #expect(sextantFixes.count == count)
        var bySextantTime: [Int64: [Substring]] = [:]
        for fix in sextantFixes { bySextantTime[Self.millisecondOfDay(fix[4])] = fix }
        let gpsdFixes = gpsdCycles.filter { $0.value[0] == "FIX" }
        #expect(gpsdFixes.count >= count - 2, "gpsd reported a fix for (nearly) every cycle Sextant did")
        for (time, a) in gpsdFixes.sorted(by: { $0.key < $1.key }) {
            guard let b = bySextantTime[time] else {
                Issue.record("gpsd has a fix at \(a[4]) that Sextant's face did not send")
                continue
            }
            #expect(abs((Double(a[2]) ?? .nan) - (Double(b[2]) ?? .nan)) <= 1e-6 && abs((Double(a[3]) ?? .nan) - (Double(b[3]) ?? .nan)) <= 1e-6, "gpsd \(a), Sextant \(b)")
        }
    }

    /// The time of day in ms of a libgps-reader time (gpsd 3.22 moves pre-2017 dates by 1024 weeks).
    static func millisecondOfDay(_ text: Substring) -> Int64 {
        let seconds = Double(text) ?? 0
        return Int64((seconds.truncatingRemainder(dividingBy: 86_400) * 1000).rounded())
    }

    @Test("a gpsd client that never reads does not stall a max-speed replay: a libgps client gets every fix, in order, with the trace's times")
    func slowClientNeverStallsOthers() throws {
        let reader = try GPSDClients.libgpsReader.get()
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["libgps-reader", ownCommand()])
        let port = try daemon.gpsdFacePort()
        // Watches, then never reads. Its receive buffer is fixed at 64 KiB: with the loopback's
        // autotuning (up to 32 MiB received and 4 MiB sent on this machine) the ~9 MB of NMEA and
        // TPVs below could all sit in the kernel, the daemon never seeing a slow client.
        let sleeper = try GPSDFaceClient(port: port, receiveBuffer: 65_536)
        sleeper.send(#"?WATCH={"enable":true,"json":true,"nmea":true};"# + "\n")
        let count = 20_000  // with NMEA, ~9 MB for the sleeper: more than its socket buffers hold
        let libgps = try ClientProcess([reader, "127.0.0.1", String(port), String(count), "20"], directory: daemon.directory, name: "libgps")
        try daemon.waitForGPSDWatchers(2)
        try daemon.replayAtMax(try daemon.write("long.jsonl", syntheticTrace(count: count, step: 0.1)))

        let fixes = try libgps.finish(timeout: 120).filter { $0.hasPrefix("FIX ") }.map { $0.split(separator: " ") }
        #expect(fixes.count == count)
        let latitudes = fixes.map { Double($0[2]) ?? .nan }
        let times = fixes.map { Double($0[4]) ?? .nan }
        #expect(zip(latitudes, latitudes.dropFirst()).allSatisfy { $0 < $1 }, "every fix, in order")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 0.001 }, "the trace's own times, 0.1 s apart")
        let log = daemon.log()
        #expect(log.contains("gpsd client is not reading") || log.contains("gpsd client's queue overflowed"), "the sleeper was a slow client: \(log.suffix(4000))")
        #expect(try daemon.control().call(Method.status)["servicesEnabled"] == true)
        withExtendedLifetime(sleeper) {}
    }

    @Test("at most 64 gpsd clients at once: one more hears gpsd's ERROR and is closed; a place freed is taken again")
    func clientLimit() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        let port = try daemon.gpsdFacePort()
        var clients: [GPSDFaceClient] = []
        for _ in 0..<64 {
            let client = try GPSDFaceClient(port: port)
            #expect(try client.nextReport()["class"] == "VERSION")
            clients.append(client)
        }
        let refused = try GPSDFaceClient(port: port)
        let error = try refused.nextReport()
        #expect(error["class"] == "ERROR" && error["message"]?.stringValue?.contains("at most 64") == true, "\(error)")
        #expect(throws: HarnessError.self) { try refused.nextLine(timeout: 5) }  // closed
        clients.removeLast()
        try daemon.waitForStatus("a place freed", timeout: 10) { _ in ((try? daemon.gpsdSessions()) ?? []).count == 63 }
        #expect(try GPSDFaceClient(port: port).nextReport()["class"] == "VERSION")
    }

    @Test("a non-loopback --gpsd-listen is refused without --gpsd-listen-any, saying why")
    func nonLoopbackRefused() throws {
        let scratch = try TemporaryDirectory("test")
        let directory = scratch.path
        let result = try run([
            Binaries.sextantd, "--runtime-dir", directory + "/run", "--state-dir", directory + "/state", "--no-gpsd", "--no-iio", "--gpsd-listen", "0.0.0.0:0",
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("not a loopback address") && result.stderr.contains("--gpsd-listen-any"), "\(result.stderr)")
    }
}
