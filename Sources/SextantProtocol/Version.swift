/// The version of the daemon, the CLI and the protocol library, shown by `--version` and
/// `status`. The one place it is written.
public let sextantVersion = "0.1.0"
