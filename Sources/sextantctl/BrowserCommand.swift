import ArgumentParser
import Foundation

/// `sextantctl browser`: runs `sextant-browser` (the Chromium bridge, a program of its own
/// so that sextantctl links no WebSocket stack) with the same arguments, in this process.
struct BrowserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browser",
        abstract: "Make a Chromium one of Sextant's apps (--app APP_ID, --cdp URL or --launch): runs sextant-browser.")

    @Argument(parsing: .captureForPassthrough, help: "sextant-browser's arguments: --app APP_ID and --cdp URL or --launch.")
    var arguments: [String] = []

    func run() throws {
        guard let path = Self.bridgePath() else {
            throw Self.unavailable("sextant-browser is neither beside sextantctl nor on PATH (install it, or build it with swift build)")
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        throw Self.unavailable("\(path): \(String(cString: strerror(errno)))")
    }

    /// `sextant-browser` beside this sextantctl (an install or a build directory), else on PATH.
    static func bridgePath() -> String? {
        let name = "sextant-browser"
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name).path
        if access(beside, X_OK) == 0 { return beside }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    private static func unavailable(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("sextantctl browser: \(message)\n".utf8))
        return ExitCode(ExitStatus.unavailable)
    }
}
