import ArgumentParser
import SextantClient
import SextantProtocol

/// `sextantctl reset`: the decisions a test may have changed, back to a fresh install's:
/// every permission forgotten, Location Services on, the prompt policy `ask`.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Forget every permission, turn Location Services on and set the prompt policy to ask.",
        discussion: "Pending prompts stay pending; sessions, the device's sensors and a running replay are left as they are.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try reporting {
            let connection = try common.control()
            let reset = try connection.call(PermissionsReset())
            let services = try connection.call(ServicesSet(enabled: true))
            let policy = try connection.call(PromptsPolicy(mode: "ask", precise: true))
            let result: JSONValue = ["permissions": reset.json, "servicesEnabled": .bool(services.enabled), "promptPolicy": policy.json]
            common.output(result) { _ in "Reset \(reset.count) permission(s); Location Services on; prompt policy ask" }
        }
    }
}
