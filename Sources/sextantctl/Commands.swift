import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the daemon's state: sources, replay, switch, orientation, last fix.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try reporting {
            common.output(try common.call(StatusRequest())) { s in
                var lines = [
                    "sextantd \(Text.plain(s["version"])), up \(Text.plain(s["uptime"]))s, profile \(Text.plain(s["profile"]))",
                    "Platform:          " + Text.platform(s["platform"]),
                    "Location Services: \(s["servicesEnabled"]?.boolValue == true ? "on" : "off")",
                    "Prompt policy:     " + Text.promptPolicy(s["promptPolicy"]),
                    "Allow Once lasts:  \(Text.plain(s["allowOnceTimeout"]))s in the background",
                    "Sources:           " + (s["sources"]?.arrayValue ?? []).map(Text.source).joined(separator: ", "),
                ]
                if let replay = s["replay"], replay["state"]?.stringValue != "idle" {
                    lines.append(
                        "Replay:            \(Text.plain(replay["state"])) \(Text.plain(replay["path"])) "
                            + String(format: "%.1f/%.1fs", replay["position"]?.doubleValue ?? 0, replay["duration"]?.doubleValue ?? 0)
                            + ", \(Text.plain(replay["events"])) samples")
                }
                if let recording = s["recording"]?.stringValue { lines.append("Recording:         \(recording)") }
                if let profile = s["gnss"]?["profile"]?.stringValue {
                    lines.append("GNSS profile:      \(profile), seed \(Text.plain(s["gnss"]?["seed"]))")
                }
                if let listeners = s["gpsdListeners"]?.arrayValue, !listeners.isEmpty {
                    lines.append("gpsd face:         " + listeners.map { Text.plain($0) }.joined(separator: ", "))
                }
                if let dbus = s["dbus"], !dbus.isNull { lines.append("D-Bus:             " + Text.dbus(dbus)) }
                lines.append("Device:            \(Text.plain(s["deviceOrientation"])), rotation lock \(s["rotationLock"]?.boolValue == true ? "on" : "off")")
                if let posture = s["posture"], !posture.isNull {
                    lines.append("Posture:           \(Text.plain(posture["state"])) (hinge \(Text.plain(posture["hingeAngle"]))°)")
                }
                if let heading = s["heading"], !heading.isNull {
                    lines.append("Heading:           " + Text.heading(heading))
                }
                lines += Text.environment(s)
                if let held = s["held"]?.arrayValue, !held.isEmpty {
                    lines.append("Held by hand:      " + held.map { Text.plain($0) }.joined(separator: ", "))
                }
                lines.append("Location:          " + (s["location"].flatMap { $0.isNull ? nil : Text.coordinate($0) } ?? "none yet"))
                if let loss = s["locationUnavailable"]?.stringValue { lines.append("Unavailable:       " + loss) }
                lines.append("Sessions:          \(Text.plain(s["sessions"]))")
                if let regions = s["regions"] {
                    lines.append("Regions:           \(Text.plain(regions["count"])) (\(Text.plain(regions["apps"])) apps)")
                }
                if let zone = s["timeZone"] { lines.append(TimeCommand.Zone.Show.describe(zone).replacingOccurrences(of: "Time zone: ", with: "Time zone:         ")) }
                if let activity = s["activity"].flatMap({ try? WireActivity(json: $0) }) {
                    lines.append("Activity:          " + Text.activity(activity))
                }
                if let steps = s["steps"]?["numberOfSteps"]?.intValue, steps > 0 {
                    lines.append("Steps:             \(steps), \(Text.plain(s["steps"]?["distance"])) m")
                }
                if let motion = s["deviceMotion"].flatMap({ try? WireDeviceMotion(json: $0) }) {
                    lines.append("Device motion:     " + Text.deviceMotion(motion))
                }
                return lines.joined(separator: "\n")
            }
        }
    }
}

struct Services: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "services", abstract: "Turn Location Services on or off for every app (RULES L1).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "on or off") var state: OnOff

    func run() throws {
        try reporting {
            common.output(try common.call(ServicesSet(enabled: state == .on))) {
                "Location Services: \($0.enabled ? "on" : "off")"
            }
        }
    }
}

extension PermissionsSet {
    /// `permissions grant` and `run --grant`: when in use or always, full or reduced.
    static func grant(_ app: String, always: Bool, approximate: Bool) -> PermissionsSet {
        PermissionsSet(app: app, status: always ? .authorizedAlways : .authorizedWhenInUse, accuracy: approximate ? .reduced : .full)
    }
}

enum OnOff: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

struct Permissions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissions",
        abstract: "List and change apps' location permissions.",
        subcommands: [List.self, Grant.self, Revoke.self, Reset.self, Set.self, Owners.self, Unbind.self, Explain.self])

    static func table(_ entries: JSONValue) -> String {
        Text.table(
            ["APP", "STATUS", "ACCURACY", "UPDATED", "UID"],
            (entries.arrayValue ?? []).map { e in
                [
                    Text.plain(e["app"]), e["allowOnce"]?.boolValue == true ? "allowOnce" : Permissions.status(e),
                    Text.plain(e["accuracy"]), Text.plain(e["updated"]), e["uid"]?.isNull == false ? Text.plain(e["uid"]) : "-",
                ]
            })
    }

    /// The daemon's warning on a decision (an app id it has never seen), on stderr; the
    /// answer itself, `--json`'s too, is unchanged.
    static func warning(of answer: JSONValue) -> JSONValue {
        if let warning = answer["warning"]?.stringValue {
            FileHandle.standardError.write(Data("sextantctl: warning: \(TerminalText.escaped(warning))\n".utf8))
        }
        return answer
    }

    static func entry(_ e: JSONValue) -> String {
        "\(Text.plain(e["app"])): \(Permissions.status(e)), \(Text.plain(e["accuracy"])) accuracy"
    }

    /// The status, and for an iOS provisional Always what Settings says (docs/platforms.md I2).
    static func status(_ e: JSONValue) -> String {
        let status = e["provisional"]?.boolValue == true ? "\(Text.plain(e["status"])) (provisional: While Using)" : Text.plain(e["status"])
        return status + temporaryFullAccuracy(e)
    }

    /// The purpose keys granted full accuracy for now (docs/platforms.md I9), if any.
    static func temporaryFullAccuracy(_ e: JSONValue) -> String {
        guard let keys = e["temporaryFullAccuracy"]?.arrayValue, !keys.isEmpty else { return "" }
        return " (temporary full accuracy: \(keys.map { Text.plain($0) }.joined(separator: ", ")))"
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List stored decisions and allowOnce grants.")
        @OptionGroup var common: CommonOptions
        func run() throws { try reporting { common.output(try common.call(PermissionsList()), human: Permissions.table) } }
    }

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "grant", abstract: "Authorize an app (when in use, or --always).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id, e.g. com.example.maps.", completion: Completions.appIDs) var app: String
        @Flag(help: "authorizedAlways instead of authorizedWhenInUse.") var always = false
        @Flag(help: "Reduced accuracy (the 2 km grid).") var approximate = false
        func run() throws {
            try reporting {
                common.output(Permissions.warning(of: try common.call(PermissionsSet.grant(app, always: always, approximate: approximate))), human: Permissions.entry)
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Deny an app (it stops receiving locations at once).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id.", completion: Completions.appIDs) var app: String
        func run() throws {
            try reporting {
                common.output(Permissions.warning(of: try common.call(PermissionsSet(app: app, status: .denied))), human: Permissions.entry)
            }
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Forget one app's decision, or every app's: they are notDetermined again.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id (all apps when left out).", completion: Completions.appIDs) var app: String?
        func run() throws {
            try reporting {
                common.output(try common.call(PermissionsReset(app: app))) { "Reset \($0.count) permission(s)" }
            }
        }
    }
}

struct Prompts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompts",
        abstract: "See and answer permission prompts and services-off alerts.",
        subcommands: [List.self, Answer.self, Wait.self, Policy.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Pending prompts with their app, kind, level and age.")
        @OptionGroup var common: CommonOptions
        func run() throws {
            try reporting {
                common.output(try common.call(PromptsList())) { list in
                    Text.table(
                        ["ID", "APP", "KIND", "LEVEL", "AGE"],
                        (list.arrayValue ?? []).map { [Text.plain($0["id"]), Text.plain($0["app"]), Text.plain($0["kind"]), Text.plain($0["level"]), Text.age($0["created"])] })
                }
            }
        }
    }

    struct Wait: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wait",
            abstract: "Wait until a prompt is pending (of --app APP), then print it: its id first.",
            discussion: "A prompt already pending counts. Exits 75 when none comes within the time-out.")
        @OptionGroup var common: CommonOptions
        @Option(help: "Only a prompt of this app.", completion: Completions.appIDs) var app: String?
        @Option(help: ArgumentHelp("Seconds to wait (default 30).", valueName: "S")) var timeout: Double = 30

        func validate() throws {
            guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be above 0 and at most 86400 seconds") }
        }

        func run() throws {
            try reporting {
                let connection = try common.control()
                // Subscribe first, then look: a prompt raised in between is not missed.
                _ = try connection.call(WatchRequest(topics: [Event.prompt]))
                let fits: (JSONValue) -> Bool = { prompt in app.map { prompt["app"]?.stringValue == $0 } ?? true }
                var prompt = (try connection.call(PromptsList()).arrayValue ?? []).first(where: fits)
                if prompt == nil {
                    let what = app.map { "a prompt of \($0)" } ?? "a prompt"
                    prompt = try connection.nextEvent(timeout: timeout, description: what) { $0.method == Event.prompt && fits($0.params) }.params
                }
                common.output(prompt ?? .null) { p in
                    "\(Text.plain(p["id"]))  \(Text.plain(p["app"]))  \(Text.plain(p["kind"]))  \(Text.plain(p["level"]))"
                }
            }
        }
    }

    struct Policy: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "policy", abstract: "Answer every new prompt at once with a choice, or ask (leave them pending).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "ask, allowOnce, allowWhileUsing, allowAlways or dontAllow.", completion: Completions.policies) var mode: String
        @Flag(help: "Grant approximate (reduced) accuracy.") var approximate = false
        func run() throws {
            try reporting {
                common.output(try common.call(PromptsPolicy(mode: mode, precise: !approximate))) {
                    "Prompt policy: \($0.mode)\($0.precise == false ? " (approximate)" : "")"
                }
            }
        }
    }
}

struct Apps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Connected app sessions; move an app to the foreground or background.",
        subcommands: [List.self, Foreground.self, Background.self])

    static func table(_ list: JSONValue) -> String {
        Text.table(
            ["SESSION", "APP", "PID", "UID", "STATE", "AUTHORIZATION", "INTERFACE", "LOCKED"],
            (list.arrayValue ?? []).map { a in
                [
                    Text.plain(a["session"]), Text.plain(a["app"]), Text.plain(a["pid"]), Text.plain(a["uid"]), Text.plain(a["state"]),
                    "\(Text.plain(a["authorization"]?["status"]))/\(Text.plain(a["authorization"]?["accuracy"]))" + Apps.hiddenFacets(a),
                    Text.plain(a["interfaceOrientation"]), a["interfaceLocked"]?.boolValue == true ? "yes" : "no",
                ]
            })
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every app session, with its pid and uid (SO_PEERCRED).")
        @OptionGroup var common: CommonOptions
        func run() throws { try reporting { common.output(try common.call(AppsList()), human: Apps.table) } }
    }

    struct Foreground: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "foreground", abstract: "Bring an app (all its sessions, or --session N) to the foreground.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id.", completion: Completions.appIDs) var app: String
        func run() throws { try reporting { try Apps.move(common, app, .foreground) } }
    }

    struct Background: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "background", abstract: "Send an app to the background.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id.", completion: Completions.appIDs) var app: String
        func run() throws { try reporting { try Apps.move(common, app, .background) } }
    }

    /// What the app cannot see of its authorization (docs/platforms.md I2, L5, I9).
    static func hiddenFacets(_ a: JSONValue) -> String {
        var facets: [String] = []
        if a["provisional"]?.boolValue == true { facets.append("provisional: While Using") }
        if a["allowOnce"]?.boolValue == true { facets.append("allowOnce") }
        return (facets.isEmpty ? "" : " (\(facets.joined(separator: ", ")))") + Permissions.temporaryFullAccuracy(a)
    }

    static func move(_ common: CommonOptions, _ app: String, _ state: AppState) throws {
        let target = Int(app).map(AppsUpdate.Target.session) ?? .app(app)
        common.output(try common.call(AppsUpdate(state: state, target: target)), human: Apps.table)
    }
}

struct LocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "location", abstract: "Set the device's location by hand, or move it along a route.", subcommands: [Set.self, Route.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Publish one fix, as if the GPS had reported it now.")
        @OptionGroup var common: CommonOptions
        // Southern and western coordinates are negative, which the parser would take for
        // options: the two numbers are read from every unrecognised word.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Latitude and longitude, degrees (south and west negative).", valueName: "lat lon"))
        var coordinates: [String]
        /// The numbers, with the `--` that scripts put before a negative one left out.
        var numbers: [String] { coordinates.filter { $0 != "--" } }
        var lat: Double { Double(numbers[0])! }
        var lon: Double { Double(numbers[1])! }
        @Option(help: "Altitude, metres.") var alt: Double?
        @Option(help: "Speed, m/s.") var speed: Double?
        @Option(help: "Course, degrees from true north.") var course: Double?
        @Option(parsing: .unconditional, help: "Horizontal accuracy, metres (default 5).") var accuracy: Double?

        func validate() throws {
            try Validated.accuracy(accuracy, unit: "metres")
            guard numbers.count == 2, numbers.allSatisfy({ Double($0) != nil }) else {
                throw ValidationError("give two numbers: LAT LON (e.g. -33.8568 151.2153)")
            }
        }

        func run() throws {
            try reporting {
                let location = WireLocation(latitude: lat, longitude: lon, horizontalAccuracy: accuracy, altitude: alt, speed: speed, course: course)
                common.output(try common.call(DeviceSet(location: location))) { taken in
                    "Location set: " + Text.coordinate(taken.location ?? location.json)
                }
            }
        }
    }
}

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record every sample the daemon receives into a Sextant trace.", subcommands: [Start.self, Stop.self])

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "start", abstract: "Start recording to PATH.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The trace file to write.", completion: .file()) var path: String
        func run() throws {
            try reporting {
                let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                common.output(try common.call(RecordStart(path: absolute))) { _ in "Recording to \(absolute)" }
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop recording.")
        @OptionGroup var common: CommonOptions
        func run() throws {
            try reporting {
                common.output(try common.call(RecordStop())) { "Recorded \($0.events) samples to \($0.path)" }
            }
        }
    }
}
