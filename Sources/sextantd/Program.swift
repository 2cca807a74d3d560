import ArgumentParser
import Foundation

/// The program's entry, shared by its own executable and the multi-call `sextant`.
public enum Program {
    /// Runs the program with `arguments` (argv without argv[0]) and exits.
    public static func main(_ arguments: [String]) async {
        if ProcessInfo.processInfo.environment["SEXTANT_PARSE_ONLY"] == "1" {
            parseOnly(arguments)
        }
        await SextantdCommand.main(arguments)
    }

    /// SEXTANT_PARSE_ONLY=1: parses and validates the command line as a start would, starts
    /// nothing, and exits 0 or 64 (printing the parser's message). Tools/ci/check-docs.py
    /// checks every command line the docs show with it.
    static func parseOnly(_ arguments: [String]) -> Never {
        do {
            _ = try SextantdCommand.parseAsRoot(arguments)
            print("parsed: sextantd")
            exit(0)
        } catch {
            if SextantdCommand.exitCode(for: error) == .success { exit(0) }
            FileHandle.standardError.write(Data((SextantdCommand.message(for: error) + "\n").utf8))
            exit(64)
        }
    }
}
