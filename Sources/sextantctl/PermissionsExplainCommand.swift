import ArgumentParser
import Foundation
import SextantProtocol

extension Permissions {
    /// `permissions explain APP`: why an app gets what it gets (docs/platforms.md).
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Show an app's whole authorization state: status, hidden facets, timers running, open prompts.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id.", completion: Completions.appIDs) var app: String
        func run() throws {
            try reporting { common.output(try common.call(PermissionsExplain(app: app)), human: Self.text) }
        }

        static func text(_ e: JSONValue) -> String {
            var lines = [
                "\(Text.plain(e["app"])) on \(Text.platform(e["platform"]))",
                "Status:    \(Text.plain(e["status"])), \(Text.plain(e["accuracy"])) accuracy"
                    + (e["servicesEnabled"]?.boolValue == false ? " (Location Services is off)" : ""),
                "Stored:    " + (e["stored"].flatMap { $0.isNull ? nil : $0 }.map { "\(Text.plain($0["status"])), \(Text.plain($0["accuracy"])) (\(Text.plain($0["updated"])))" } ?? "none"),
            ]
            if let motion = e["motion"], !motion.isNull { lines.append("Motion:    " + Self.motion(motion)) }
            for session in e["sessions"]?.arrayValue ?? [] { lines.append("Session:   " + Self.session(session)) }
            let facets = (e["facets"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \(Text.plain($0.value))" }
            if !facets.isEmpty { lines.append("Facets:    " + facets.joined(separator: ", ")) }
            for timer in e["timers"]?.arrayValue ?? [] {
                lines.append("Timer:     \(Text.plain(timer["name"])) in \(Text.plain(timer["inSeconds"]))s (at \(Text.plain(timer["firesAt"])))")
            }
            for prompt in e["prompts"]?.arrayValue ?? [] {
                lines.append("Prompt:    \(Text.plain(prompt["id"])) \(Text.plain(prompt["kind"])) (\(Text.plain(prompt["level"]))), open \(Text.age(prompt["created"]))")
            }
            return lines.joined(separator: "\n")
        }

        /// `denied (ACTIVITY_RECOGNITION, denied twice: don't ask again)`.
        private static func motion(_ m: JSONValue) -> String {
            var text = "\(Text.plain(m["status"])) (\(Text.plain(m["permission"]))"
            if let denials = m["denials"]?.intValue, denials > 0 {
                text += ", denied \(denials == 1 ? "once" : "twice")" + (m["dontAskAgain"]?.boolValue == true ? ": don't ask again" : "")
            }
            return text + ")"
        }

        private static func session(_ s: JSONValue) -> String {
            var text = "\(Text.plain(s["session"])) \(Text.plain(s["state"]))"
            if let seconds = s["backgroundFor"], !seconds.isNull { text += " for \(Text.plain(seconds))s" }
            if s["heldByControl"]?.boolValue == true { text += " (held by the control side)" }
            if let grant = s["allowOnce"]?.stringValue { text += ", Allow Once (\(grant))" }
            if s["prompted"]?.boolValue == true { text += ", has had its prompt" }
            if let waiting = s["waitingRequests"]?.intValue, waiting > 0 { text += ", \(waiting) request(s) waiting" }
            return text
        }
    }
}
