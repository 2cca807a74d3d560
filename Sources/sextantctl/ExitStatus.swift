import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol
import Synchronization

/// sextantctl's exit statuses, one table for every command (sextantctl(1), EXIT STATUS).
/// The numbers from 64 on are sysexits(3)'s, so that scripts can tell a mistake in the
/// command line from a daemon that is not there.
enum ExitStatus {
    /// The daemon answered with an error, or the command failed for a reason of its own.
    static let failed: Int32 = 1
    /// Bad usage: an unknown option, a value out of range, a missing argument.
    static let usage: Int32 = 64
    /// No daemon to talk to, or it closed the connection.
    static let unavailable: Int32 = 69
    /// `run`: the daemon died while COMMAND ran.
    static let daemonDied: Int32 = 70
    /// A wait (`--wait`, `prompts wait`) ran out of time.
    static let timedOut: Int32 = 75
    /// Interrupted by SIGINT (128 + 2), as shells report it.
    static let interrupted: Int32 = 130

    /// Set once from the command line: errors are JSON on standard output too.
    private static let jsonErrorsFlag = Atomic<Bool>(false)
    static var jsonErrors: Bool {
        get { jsonErrorsFlag.load(ordering: .acquiring) }
        set { jsonErrorsFlag.store(newValue, ordering: .releasing) }
    }

    /// Says what went wrong (stderr, or JSON on stdout with --json) and returns the exit.
    static func report(_ error: Error) -> Error {
        switch error {
        case let exit as ExitCode: return exit
        case let failure as StatusFailure: return say(code: failure.status, failure.description, status: failure.status)
        case let failure as Failure: return say(code: failed, failure.description, status: failed)
        case let client as ClientError:
            switch client {
            case .rpc(let rpc):
                // The daemon's message, one line whatever an app or a path in it holds.
                let human = TerminalText.escaped(client.description)
                return say(code: Int32(truncatingIfNeeded: rpc.code), rpc.message, status: failed, data: rpc.data, human: human)
            case .timedOut: return say(code: timedOut, client.description, status: timedOut)
            case .cannotConnect, .untrustedPeer, .closed, .lineTooLong, .cancelled, .io: return say(code: unavailable, client.description, status: unavailable)
            }
        default: return error  // ArgumentParser's own (validation, help) keep their handling
        }
    }

    private static func say(code: Int32, _ message: String, status: Int32, data: JSONValue? = nil, human: String? = nil) -> ExitCode {
        if jsonErrors {
            var error: [String: JSONValue] = ["code": .int(Int64(code)), "message": .string(message)]
            if let data { error["data"] = data }
            printJSON(JSONValue.object(["error": .object(error)]))
        } else {
            // The daemon's message may quote what an app wrote (a region's identifier).
            FileHandle.standardError.write(Data("sextantctl: \(TerminalText.escapedKeepingLines(human ?? message))\n".utf8))
        }
        return ExitCode(status)
    }

    /// A usage error found by the parser, as JSON on stdout when --json was given.
    static func reportUsage(_ message: String) {
        _ = say(code: usage, message, status: usage)
    }
}

/// A failure with an exit status of the table (a time-out, an interruption, a replay that
/// was replaced).
struct StatusFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String
    init(_ status: Int32, _ description: String) {
        self.status = status
        self.description = description
    }
}
