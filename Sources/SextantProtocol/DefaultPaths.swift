/// Where the daemon puts its sockets and its store, unless told otherwise. Both the
/// daemon and its clients resolve them the same way, from the environment and the uid.
public enum DefaultPaths {
    public static let appSocketName = "app.sock"
    public static let controlSocketName = "control.sock"

    /// `$SEXTANT_RUNTIME_DIR` when set (so that a shell can point every client at a private
    /// daemon once); else `/run/sextant` for root; else `$XDG_RUNTIME_DIR/sextant`.
    ///
    /// Nil when none of these applies: a directory guessed in a place every user may write
    /// (`/tmp/sextant-UID`) can be created first by another user, so there is no such default.
    public static func runtimeDirectory(environment: [String: String], uid: UInt32) -> String? {
        if let chosen = environment["SEXTANT_RUNTIME_DIR"], !chosen.isEmpty { return chosen }
        if uid == 0 { return "/run/sextant" }
        if let base = environment["XDG_RUNTIME_DIR"], !base.isEmpty { return base + "/sextant" }
        return nil
    }

    /// Why `runtimeDirectory` found none, for an error message.
    public static let noRuntimeDirectory =
        "no runtime directory: XDG_RUNTIME_DIR is not set, and a guessed shared directory such as /tmp/sextant-UID is not safe; "
        + "give --runtime-dir DIR (or set SEXTANT_RUNTIME_DIR)"

    /// `/var/lib/sextant` for root; `$XDG_STATE_HOME/sextant` or `~/.local/state/sextant`
    /// otherwise; nil without either variable (no shared guess).
    public static func stateDirectory(environment: [String: String], uid: UInt32) -> String? {
        if uid == 0 { return "/var/lib/sextant" }
        if let base = environment["XDG_STATE_HOME"], !base.isEmpty { return base + "/sextant" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/sextant"
    }

    public static let noStateDirectory = "no state directory: neither XDG_STATE_HOME nor HOME is set; give --state-dir DIR"
}
