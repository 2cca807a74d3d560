import ArgumentParser
import Foundation

/// `sextantctl panel`: the browser panel is a program of its own (`sextant-panel`), so that
/// sextantctl links no HTTP server; this runs it, with the same arguments.
struct Panel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "panel",
        abstract: "Serve the control panel in the browser (runs sextant-panel).",
        discussion: """
            Runs the sextant-panel beside this sextantctl (else the one on PATH) with ARGS: \
            it prints http://127.0.0.1:PORT/#token=TOKEN once it listens (--open hands it to the browser \
            through a file only you can read, never on a command line). Its options: \
            --socket PATH, --runtime-dir DIR, --listen HOST:PORT, --open, --tiles URL-TEMPLATE, \
            --traces DIR, --assets DIR, --leaflet DIR, --basemap FILE (sextant-panel --help).
            """)

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("sextant-panel's options.", valueName: "args"))
    var arguments: [String] = []

    func run() throws {
        try reporting {
            guard let program = Self.locate() else {
                throw StatusFailure(ExitStatus.unavailable, "sextant-panel is not installed: it was found neither beside sextantctl nor on PATH")
            }
            var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) }
            argv.append(nil)
            execv(program, argv)
            throw StatusFailure(ExitStatus.unavailable, "cannot run \(program): \(String(cString: strerror(errno)))")
        }
    }

    /// `sextant-panel` in sextantctl's own directory, else the first on PATH.
    static func locate() -> String? {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("sextant-panel").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/sextant-panel"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
