import SextantCore
import SextantProtocol
import SextantStore

/// Which phone a daemon plays on its state directory (docs/platforms.md, "The profile").
///
/// The decisions kept there were made under one platform's rules (an iOS status has no
/// Android meaning), so a state directory stays the platform it was first started as: a
/// `--platform` naming the other one is refused rather than reinterpreting the decisions.
/// Another API level of the same platform is an OS update and is taken.
enum PlatformChoice {
    static func resolve(given: DevicePlatform?, snapshot: StoreSnapshot, stateDirectory: String) throws -> DevicePlatform {
        // A store from before platforms existed holds iOS decisions if it holds any.
        let stored = snapshot.platform ?? (snapshot.permissions.isEmpty ? nil : .ios)
        guard let given else { return stored ?? .ios }
        if let stored, stored.name != given.name {
            throw DaemonStartError(
                description: """
                    the state directory \(stateDirectory) holds the decisions of an \(stored.name) phone: \
                    start with --platform \(stored.name), or give an \(given.name) phone a --state-dir of its own
                    """)
        }
        return given
    }
}
