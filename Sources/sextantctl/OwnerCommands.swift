import ArgumentParser
import SextantProtocol

/// App ids bound to uids (docs/security.md): `permissions owners` and `permissions unbind`.
extension Permissions {
    struct Owners: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "owners", abstract: "List app ids with the uid each is bound to (the first uid that said hello with it).")
        @OptionGroup var common: CommonOptions
        func run() throws {
            try reporting {
                common.output(try common.call(PermissionsOwners())) { entries in
                    Text.table(["APP", "UID"], (entries.arrayValue ?? []).map { [Text.plain($0["app"]), Text.plain($0["uid"])] })
                }
            }
        }
    }

    struct Unbind: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unbind",
            abstract: "Free an app id for the next uid that says hello with it (its decision is kept; live sessions go on).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id.", completion: Completions.appIDs) var app: String
        func run() throws {
            try reporting {
                common.output(try common.call(PermissionsUnbind(app: app))) { result in
                    result.uid.map { "\(app): unbound from uid \($0)" } ?? "\(app) was not bound"
                }
            }
        }
    }
}
