import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

extension Permissions {
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set an app's status exactly (notDetermined, restricted, denied, authorizedWhenInUse, authorizedAlways), or on an Android phone its grants.",
            discussion: """
                On an Android phone (sextantd --platform android), --grant sets exactly the permissions \
                granted, as Settings does: coarse,fine,background is "Allow all the time", coarse,fine \
                "Allow only while using", coarse approximate, '' "Don't allow"; --denials 2 is "don't ask \
                again" (docs/platforms.md AN15).
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id.", completion: Completions.appIDs) var app: String
        @Argument(help: "The status (not needed with --grant).", completion: Completions.statuses) var status: String?
        @Option(help: "full or reduced.", completion: Completions.accuracies) var accuracy: String?
        @Option(help: ArgumentHelp("Android: the permissions granted, comma-separated (coarse, fine, background).", valueName: "list"))
        var grant: String?
        @Option(help: ArgumentHelp("Android: the dialog's denials in a row: 0, 1 (user-set) or 2 (don't ask again).", valueName: "n"))
        var denials: Int?
        @Flag(help: "iOS: authorizedAlways given provisionally (While Using answered to an Always request): the next background region, visit or significant change raises the upgrade prompt.")
        var provisional = false
        @Flag(help: "iOS: an Allow Once grant (a one-time While Using) in the app's live sessions, with authorizedWhenInUse; it reverts to notDetermined when the app is no longer in use (L5, I8).")
        var once = false
        @Option(help: ArgumentHelp("iOS: full accuracy for this purpose key in the app's live sessions, while in use (I9); the key must be one the app declared at hello.", valueName: "key"))
        var temporaryFullAccuracy: String?
        @Flag(name: .customLong("one-time"), help: "Android: the --grant permissions (coarse, fine) given \"Only this time\": revoked 60 s after the app leaves the foreground, 5 s after its last session closes.")
        var oneTime = false

        func validate() throws {
            if status == nil, grant == nil, denials == nil { throw ValidationError("give a STATUS, or on an Android phone --grant LIST") }
        }

        func run() throws {
            try reporting {
                var params: [String: JSONValue] = ["app": .string(app)]
                if let status { params["status"] = .string(status) }
                if let accuracy { params["accuracy"] = .string(accuracy) }
                if let grant {
                    params["grants"] = .array(grant.split(separator: ",").map { .string($0.trimmingCharacters(in: .whitespaces)) })
                }
                if let denials { params["denials"] = .int(Int64(denials)) }
                if provisional { params["provisional"] = true }
                if once { params["once"] = true }
                if let temporaryFullAccuracy { params["temporaryFullAccuracy"] = .string(temporaryFullAccuracy) }
                if oneTime { params["oneTime"] = true }
                let connection = try common.control()
                let answer = try connection.call(try common.request(PermissionsSet.self, .object(params)))
                common.output(Permissions.warning(of: answer), human: Self.entry)
            }
        }

        /// The entry, with an Android phone's grants when it has them.
        static func entry(_ e: JSONValue) -> String {
            guard let grants = e["android"]?["grants"] else {
                return e["allowOnce"]?.boolValue == true ? Permissions.entry(e) + " (allowOnce)" : Permissions.entry(e)
            }
            let held = ["coarse", "fine", "background"].filter { grants[$0] == "granted" }
            return Permissions.entry(e) + " (granted: \(held.isEmpty ? "none" : held.joined(separator: ", ")))"
        }
    }
}
