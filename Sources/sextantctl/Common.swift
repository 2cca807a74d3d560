import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

/// Options every command takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("runtime-dir"), help: ArgumentHelp("The daemon's runtime directory (holds control.sock).", valueName: "dir"), completion: .directory)
    var runtimeDirectory: String?

    @Flag(help: "Print JSON (one object or array; NDJSON for watch) instead of tables.")
    var json = false

    func resolvedRuntimeDirectory() throws -> String {
        guard let directory = runtimeDirectory ?? DefaultPaths.runtimeDirectory(environment: ProcessInfo.processInfo.environment, uid: UInt32(getuid()))
        else { throw Failure(DefaultPaths.noRuntimeDirectory) }
        return directory
    }

    /// A connection to the daemon's control socket, once the kernel has said that the
    /// daemon behind it runs as this user or root (the client library checks SO_PEERCRED).
    func control() throws -> SextantConnection {
        try SextantConnection.control(runtimeDirectory: try resolvedRuntimeDirectory())
    }

    /// One request to the control socket; the daemon's error becomes our exit status.
    func call<Request: RPCRequest>(_ request: Request, timeout: Double = 30) throws -> Request.Result {
        try control().call(request, timeout: timeout)
    }

    /// A request made of what the person typed, read as the daemon reads it: a value it
    /// would refuse is refused here with the daemon's own -32602 and message.
    func request<Request: RPCRequest>(_ type: Request.Type, _ params: JSONValue) throws -> Request {
        do { return try Request(Params(params)) } catch { throw ClientError.rpc(error) }
    }

    /// Prints a result: JSON with --json, else the human form.
    func output<Value: WireValue>(_ value: Value, human: (Value) -> String) {
        if json {
            printJSON(value.json)
        } else {
            let text = human(value)
            if !text.isEmpty { say(text) }
        }
    }
}

/// Prints human text sextantctl made, its lines kept and every control character or bidi
/// control in it escaped: the daemon's answers carry what apps wrote (app ids, region
/// identifiers, purpose strings), which must not drive the terminal (docs/security.md).
func say(_ text: String) { print(TerminalText.escapedKeepingLines(text)) }

/// Prints JSON with what a terminal would act on escaped as JSON escapes (still the same JSON).
func printJSON(_ value: JSONValue) { print(TerminalText.jsonForTerminal(value.serialized())) }

/// A failure to report: message on stderr, exit status 1.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a command body, turning failures into a message (JSON with --json) and the exit
/// status of the table in ``ExitStatus``.
func reporting(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        throw ExitStatus.report(error)
    }
}

/// The same, for a command that waits in a task.
func reporting(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw ExitStatus.report(error)
    }
}

// MARK: - Human output

enum Text {
    /// A plain-text table, columns padded to their widest cell.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "(none)" }
        var widths = header.map(\.count)
        // A cell is one line: a newline an app wrote in it is shown escaped, not obeyed.
        let header = header.map(TerminalText.escaped)
        let rows = rows.map { $0.map(TerminalText.escaped) }
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    /// `status`'s prompt policy: its mode, and for one that answers prompts and is stored,
    /// that later daemons keep it and how to reset it.
    static func promptPolicy(_ policy: JSONValue?) -> String {
        let mode = plain(policy?["mode"])
        var text = mode + (policy?["precise"]?.boolValue == false ? " (approximate)" : "")
        if mode != "ask", policy?["stored"]?.boolValue == true {
            text += ", stored: every later daemon on this state directory answers prompts so (reset: sextantctl prompts policy ask)"
        }
        return text
    }

    /// `status`'s platform: "iOS", "Android (API 36)"; "iOS" from a daemon that says none.
    static func platform(_ platform: JSONValue?) -> String {
        guard platform?["name"]?.stringValue == "android" else { return "iOS" }
        return "Android (API \(plain(platform?["androidApi"])))"
    }

    /// A source of `status`: its name and state; for a lost gpsd, since when and why.
    static func source(_ source: JSONValue) -> String {
        var state = plain(source["state"])
        if let since = source["lostSince"]?.stringValue {
            state += " since \(since)" + (source["lostReason"]?.stringValue.map { ": \($0)" } ?? "")
        }
        return "\(plain(source["name"])) (\(state))"
    }

    /// A JSON value as a short human string.
    static func plain(_ value: JSONValue?) -> String {
        switch value {
        case .none, .some(.null): return "-"
        case .some(.string(let s)): return TerminalText.escaped(s)
        case .some(.double(let d)): return String(format: "%g", d)
        case .some(let other): return other.serialized()
        }
    }

    /// A number as `plain` writes one (`%g`).
    static func number(_ value: Double) -> String { String(format: "%g", value) }

    /// A decoded fix, as ``coordinate(_:)-JSONValue`` writes its JSON.
    static func coordinate(_ fix: WireLocation) -> String {
        let accuracy = ((fix.horizontalAccuracy ?? 0) * 10).rounded() / 10
        var s = String(format: "%.6f, %.6f  ±%gm", fix.latitude, fix.longitude, accuracy)
        if let alt = fix.altitude { s += String(format: "  alt %.1fm", alt) }
        if let speed = fix.speed { s += String(format: "  %.1fm/s", speed) }
        if let course = fix.course { s += String(format: "  %.0f°", course) }
        if fix.accuracy == .reduced { s += "  (reduced)" }
        return s
    }

    /// A visit's place, as a fix's.
    static func coordinate(_ visit: WireVisit) -> String {
        coordinate(WireLocation(latitude: visit.latitude, longitude: visit.longitude, horizontalAccuracy: visit.horizontalAccuracy, accuracy: visit.accuracy))
    }

    /// A `heading` event: magnetic and true degrees, and the accuracy.
    static func heading(_ h: WireHeading) -> String {
        var s = String(format: "%.1f° magnetic", h.magnetic)
        if let trueHeading = h.trueHeading { s += String(format: ", %.1f° true", trueHeading) }
        if let accuracy = h.accuracy { s += String(format: "  ±%g°", accuracy) }
        return s
    }

    static func coordinate(_ fix: JSONValue) -> String {
        guard let lat = fix[LocationKey.latitude]?.doubleValue, let lon = fix[LocationKey.longitude]?.doubleValue else { return "-" }
        // To 0.1 m, as every line that shows a fix: a profile's accuracies have many digits.
        let accuracy = ((fix[LocationKey.horizontalAccuracy]?.doubleValue ?? 0) * 10).rounded() / 10
        var s = String(format: "%.6f, %.6f  ±%gm", lat, lon, accuracy)
        if let alt = fix[LocationKey.altitude]?.doubleValue { s += String(format: "  alt %.1fm", alt) }
        if let speed = fix[LocationKey.speed]?.doubleValue { s += String(format: "  %.1fm/s", speed) }
        if let course = fix[LocationKey.course]?.doubleValue { s += String(format: "  %.0f°", course) }
        if fix[LocationKey.accuracy]?.stringValue == LocationAccuracy.reduced.rawValue { s += "  (reduced)" }
        return s
    }

    /// A heading (`status`'s or a `heading` event's): magnetic and true degrees, accuracy,
    /// and in `status` its source and the calibration state.
    static func heading(_ h: JSONValue) -> String {
        var s = String(format: "%.1f° magnetic", h["magnetic"]?.doubleValue ?? 0)
        if let trueHeading = h["true"]?.doubleValue { s += String(format: ", %.1f° true", trueHeading) }
        if let accuracy = h["accuracy"]?.doubleValue { s += String(format: "  ±%g°", accuracy) }
        if let source = h["source"]?.stringValue { s += "  from \(source)" }
        if h["calibrationNeeded"]?.boolValue == true { s += "  (calibration needed)" }
        return s
    }

    /// A `session` event: what happened, then the session as `apps` shows it.
    static func session(_ s: JSONValue) -> String {
        let change = plain(s["change"])
        guard change != "closed" else { return "closed (\(plain(s["kind"])), pid \(plain(s["pid"])), uid \(plain(s["uid"])))" }
        let streams = s["streams"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return "\(change): \(plain(s["state"])), \(plain(s["authorization"]?["status"])), interface \(plain(s["interfaceOrientation"])), "
            + "streams \(streams.isEmpty ? "nothing" : streams.joined(separator: " "))"
    }

    /// An age like "12s" from an RFC 3339 time.
    static func age(_ value: JSONValue?) -> String {
        guard let text = value?.stringValue, let then = Timestamp(rfc3339: text) else { return "-" }
        let seconds = max(0, Int((Date().timeIntervalSince1970 - then.seconds).rounded()))
        if seconds < 120 { return "\(seconds)s" }
        if seconds < 7200 { return "\(seconds / 60)m" }
        return "\(seconds / 3600)h"
    }
}

extension Text {
    /// `status`'s `dbus`: the bus, its state, the names held (or why not).
    static func dbus(_ dbus: JSONValue) -> String {
        let names = (dbus["names"]?.arrayValue ?? []).map { plain($0) }.joined(separator: ", ")
        switch dbus["state"]?.stringValue {
        case "connected": return "\(plain(dbus["bus"])) bus as \(plain(dbus["uniqueName"])), holding \(names.isEmpty ? "no name" : names)"
        case "retrying": return "\(plain(dbus["bus"])) bus: retrying (\(plain(dbus["error"])))"
        default: return "\(plain(dbus["bus"])) bus: \(plain(dbus["state"]))"
        }
    }
}

/// Checks of option values shared by several commands, each refusal naming the option.
enum Validated {
    /// `--accuracy`: an accuracy is a distance or an angle either side, so 0 or more.
    static func accuracy(_ value: Double?, unit: String) throws {
        guard let value, value < 0 || !value.isFinite else { return }
        throw ValidationError("--accuracy must be 0 or more \(unit), not \(Text.plain(.double(value)))")
    }
}
