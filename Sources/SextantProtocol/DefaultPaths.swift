/// Where the daemon puts its sockets and its store, unless told otherwise. Both the
/// daemon and its clients resolve them the same way, from the environment and the uid.
public enum DefaultPaths {
    public static let appSocketName = "app.sock"
    public static let controlSocketName = "control.sock"

    /// `$SEXTANT_RUNTIME_DIR` when set (so that a shell can point every client at a private
    /// daemon once); else `/run/sextant` for root; `$XDG_RUNTIME_DIR/sextant` otherwise, or
    /// `/tmp/sextant-UID` when that variable is unset.
    public static func runtimeDirectory(environment: [String: String], uid: UInt32) -> String {
        if let chosen = environment["SEXTANT_RUNTIME_DIR"], !chosen.isEmpty { return chosen }
        if uid == 0 { return "/run/sextant" }
        if let base = environment["XDG_RUNTIME_DIR"], !base.isEmpty { return base + "/sextant" }
        return "/tmp/sextant-\(uid)"
    }

    /// `/var/lib/sextant` for root; `$XDG_STATE_HOME/sextant` or `~/.local/state/sextant` otherwise.
    public static func stateDirectory(environment: [String: String], uid: UInt32) -> String {
        if uid == 0 { return "/var/lib/sextant" }
        if let base = environment["XDG_STATE_HOME"], !base.isEmpty { return base + "/sextant" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return home + "/.local/state/sextant"
    }
}
