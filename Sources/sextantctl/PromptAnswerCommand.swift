import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

extension Prompts {
    struct Answer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "answer",
            abstract: """
                Answer a prompt: allowOnce, allowWhileUsing, allowAlways or dontAllow (Android: whileUsing, onlyThisTime, \
                allowAllTheTime); an alert: settings or cancel; \
                iOS's upgrade prompt: keepWhileUsing or changeToAlways; its temporary full-accuracy prompt: allow or deny; \
                the Motion & Fitness prompt and the ACTIVITY_RECOGNITION dialog: allow or dontAllow.
                """,
            usage: "sextantctl prompts answer (ID | --app APP) CHOICE [--approximate | --precise]")
        @OptionGroup var common: CommonOptions
        @Option(help: "Answer this app's oldest pending prompt instead of naming its id.", completion: Completions.appIDs) var app: String?
        @Argument(help: ArgumentHelp("The prompt id (as prompts list shows it; not with --app), then the choice.", valueName: "id-and-choice"), completion: Completions.promptAnswerWords)
        var words: [String]
        @Flag(help: "Grant approximate (reduced) accuracy instead of precise.") var approximate = false
        @Flag(help: "Grant precise accuracy even to an app that declared defaultAccuracyReduced (the default otherwise).") var precise = false

        func validate() throws {
            guard words.count == (app == nil ? 2 : 1) else {
                throw ValidationError(app == nil ? "give the prompt's ID and a CHOICE, or --app APP and a CHOICE" : "with --app, give the CHOICE alone")
            }
            guard !(approximate && precise) else { throw ValidationError("--approximate and --precise contradict each other: give one") }
        }

        func run() throws {
            try reporting {
                let connection = try common.control()
                let id: String
                if let app {
                    let pending = try connection.call(PromptsList()).arrayValue ?? []
                    guard let prompt = pending.first(where: { $0["app"]?.stringValue == app }), let found = prompt["id"]?.stringValue else {
                        throw Failure("no pending prompt for \(app) (sextantctl prompts wait --app \(app) waits for one)")
                    }
                    id = found
                } else {
                    id = words[0]
                }
                var params: [String: JSONValue] = ["id": .string(id), "choice": .string(words[words.count - 1])]
                // Neither flag: the daemon's default, approximate for an app that declared
                // NSLocationDefaultAccuracyReduced (docs/platforms.md I11), else precise.
                if approximate || precise { params["precise"] = .bool(!approximate) }
                common.output(try connection.call(try common.request(PromptsAnswer.self, .object(params)))) { r in
                    var s = "\(r.id) (\(r.app)): \(r.choice.rawValue)"
                    if let given = r.authorization { s += " → \(given.status.rawValue), \(given.accuracy.rawValue) accuracy" }
                    return s
                }
            }
        }
    }
}
