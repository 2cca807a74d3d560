import ArgumentParser
import Foundation

/// The program's entry, shared by its own executable and the multi-call `sextant`.
public enum Program {
    /// Runs the program with `arguments` (argv without argv[0]) and exits.
    public static func main(_ arguments: [String]) async {
        if ProcessInfo.processInfo.environment["SEXTANT_PARSE_ONLY"] == "1" {
            parseOnly(arguments)
        }
        await SextantctlCommand.main(arguments: arguments)
    }

    /// SEXTANT_PARSE_ONLY=1: parses and validates the command line as a run would, runs
    /// nothing, and exits 0 (printing the command's name) or 64 (printing the parser's
    /// message). Tools/ci/check-docs.py checks every command line the docs show with it.
    static func parseOnly(_ arguments: [String]) -> Never {
        do {
            let command = try SextantctlCommand.parseAsRoot(SextantctlCommand.movingCommonOptionsAfterCommand(arguments))
            print("parsed: \(type(of: command)._commandName)")
            exit(0)
        } catch {
            let code = SextantctlCommand.exitCode(for: error)
            if code == .success { exit(0) }
            FileHandle.standardError.write(Data((SextantctlCommand.message(for: error) + "\n").utf8))
            exit(64)
        }
    }
}
