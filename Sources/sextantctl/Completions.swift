import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

/// What the shells complete for sextantctl's values (`sextantctl --generate-completion-script
/// bash|zsh|fish`): the words the daemon accepts, and, asked of the running daemon when the
/// user presses TAB, the app ids and prompt ids it knows.
enum Completions {
    /// `permissions set`'s STATUS (sextant-protocol(7), `permissions.set`).
    static let statuses = CompletionKind.list(["notDetermined", "restricted", "denied", "authorizedWhenInUse", "authorizedAlways"])
    static let accuracies = CompletionKind.list(["full", "reduced"])
    /// A prompt's choices, then an alert's (`prompts.answer`).
    static let choiceWords = [
        "allowOnce", "allowWhileUsing", "allowAlways", "dontAllow", "settings", "cancel", "whileUsing", "onlyThisTime", "allowAllTheTime",
        "keepWhileUsing", "changeToAlways", "allow", "deny",
    ]
    static let policies = CompletionKind.list(["ask"] + PromptChoice.allCases.filter(\.isAuthorizationChoice).map(\.rawValue))
    /// A replay's speed: `max`, or a factor of real time (any number; these are examples).
    static let speeds = CompletionKind.list([ReplaySpeed.max.description, "1", "2", "10"])
    /// `gnss profile`'s SPEC: a preset (RULES N3) or off; events follow a comma.
    static let gnssProfiles = CompletionKind.list(["open-sky", "urban", "forest", "indoor", "off"])
    static let traceFormats = CompletionKind.list(["sextant", "gpx", "geojson", "kml", "nmea"])

    /// The app ids the daemon knows: those with a stored decision and those connected now.
    static let appIDs = CompletionKind.custom { words, _, prefix in
        guard let control = LiveDaemon.connect(words: words) else { return [] }
        var ids = Set<String>()
        for entry in LiveDaemon.list(control, PermissionsList()) + LiveDaemon.list(control, AppsList()) {
            if let app = entry["app"]?.stringValue { ids.insert(app) }
        }
        return ids.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// `prompts answer ID CHOICE` or `prompts answer --app APP CHOICE`: the pending prompts'
    /// ids where an id goes, the choices where the choice goes.
    static let promptAnswerWords = CompletionKind.custom { words, index, prefix in
        let positional = positionalWords(words.prefix(index).drop { $0 != "answer" }.dropFirst(), optionsWithValue: ["--runtime-dir", "--app"])
        let hasApp = words.contains("--app") || words.contains { $0.hasPrefix("--app=") }
        let candidates: [String]
        if !hasApp && positional == 0 {
            guard let control = LiveDaemon.connect(words: words) else { return [] }
            candidates = LiveDaemon.list(control, PromptsList()).compactMap { $0["id"]?.stringValue }
        } else {
            candidates = choiceWords
        }
        return candidates.filter { $0.hasPrefix(prefix) }
    }

    /// How many positional words a command line has, its options and their values left out.
    static func positionalWords(_ words: some Sequence<String>, optionsWithValue: Set<String>) -> Int {
        var count = 0, skipNext = false
        for word in words {
            if skipNext { skipNext = false; continue }
            if optionsWithValue.contains(word) { skipNext = true; continue }
            if !word.hasPrefix("-") { count += 1 }
        }
        return count
    }
}

/// The daemon a completion asks, found as the command being completed would find it
/// (its `--runtime-dir`, else the default). Completion runs at each TAB: no daemon, a
/// daemon of another user, or a daemon slow to answer gives no candidates, silently.
enum LiveDaemon {
    static let timeout = 1.0

    static func connect(words: [String]) -> SextantConnection? {
        var runtimeDirectory: String?
        for (i, word) in words.enumerated() {
            if word == "--runtime-dir", i + 1 < words.count {
                runtimeDirectory = words[i + 1]
            } else if word.hasPrefix("--runtime-dir=") {
                runtimeDirectory = String(word.dropFirst("--runtime-dir=".count))
            }
        }
        // The shell passes words as typed: a quoted or escaped directory is not looked up.
        if let given = runtimeDirectory, given.contains(where: { "\"'\\".contains($0) }) { return nil }
        let environment = ProcessInfo.processInfo.environment
        guard let directory = runtimeDirectory ?? DefaultPaths.runtimeDirectory(environment: environment, uid: UInt32(getuid()))
        else { return nil }
        return try? SextantConnection.control(runtimeDirectory: (directory as NSString).expandingTildeInPath)
    }

    static func list<Request: RPCRequest>(_ control: SextantConnection, _ request: Request) -> [JSONValue] where Request.Result == JSONValue {
        (try? control.call(request, timeout: timeout))?.arrayValue ?? []
    }
}
