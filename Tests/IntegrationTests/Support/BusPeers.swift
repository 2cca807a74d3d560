import Foundation
import SextantTestSupport

/// Tools/dev/bus-peer.py: any number of D-Bus connections from one process (GLib's Gio), driven
/// request by request: GeoClue clients, another peer listening, a forged signal, dozens of
/// connections of one uid. Under `setpriv` with `uid`, every connection is that user's.
final class BusPeers {
    private let process = Process()
    private let input: FileHandle
    private let lines = Watched<[String]>([])
    /// Answers read so far (the lines that are not signals).
    private var answered = 0

    init(address: String, uid: UInt32? = nil) throws {
        let script = try String(contentsOfFile: Repository.root + "/Tools/dev/bus-peer.py", encoding: .utf8)
        // The script's text, not its path: another uid need not read the checkout.
        let python = ["/usr/bin/python3", "-c", script, address]
        let user = uid.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] } ?? []
        let command = user + python
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try launch(process)
        input = stdin.fileHandleForWriting
        let lines = self.lines
        readLines(from: stdout.fileHandleForReading) { line in lines.update { $0.append(line) } }
    }

    deinit {
        try? input.close()
        stop(process)
    }

    /// Sends one request and waits (at most `timeout` s) for its answer.
    @discardableResult
    func request(_ fields: [String: Any], timeout: Double = 60) throws -> [String: Any] {
        var line = try JSONSerialization.data(withJSONObject: fields)
        line.append(UInt8(ascii: "\n"))
        try input.write(contentsOf: line)
        let index = answered
        let answer = lines.wait(timeout: timeout) { lines in
            lines.filter { !$0.hasPrefix(#"{"signal""#) }.dropFirst(index).first
        }
        guard let answer else { throw HarnessError("bus-peer.py did not answer \(fields["op"] ?? "?") within \(timeout) s") }
        answered += 1
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
            throw HarnessError("bus-peer.py answered \(answer)")
        }
        if let failure = object["failed"] { throw HarnessError("bus-peer.py: \(failure)") }
        return object
    }

    /// A new connection: its number and unique name.
    func connect() throws -> (conn: Int, name: String) {
        let answer = try request(["op": "connect"])
        return (answer["conn"] as? Int ?? -1, answer["name"] as? String ?? "")
    }

    /// A method call; the printed reply, or the error's name and message.
    func call(_ conn: Int, _ dest: String, _ path: String, _ interface: String, _ method: String, _ args: String? = nil) throws
        -> Result<String, BusPeerError>
    {
        var fields: [String: Any] = ["op": "call", "conn": conn, "dest": dest, "path": path, "interface": interface, "method": method]
        if let args { fields["args"] = args }
        let answer = try request(fields)
        if let reply = answer["reply"] as? String { return .success(reply) }
        return .failure(BusPeerError(name: answer["error"] as? String ?? "", message: answer["message"] as? String ?? ""))
    }

    /// The signals heard so far by connections that `listen`.
    var signals: [[String: String]] { Self.signals(in: lines.current) }

    private static func signals(in lines: [String]) -> [[String: String]] {
        lines.compactMap { line in
            guard line.hasPrefix(#"{"signal""#), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return (object["signal"] as? [String: Any])?.compactMapValues { $0 as? String ?? ($0 as? Int).map(String.init) }
        }
    }

    /// Waits (at most `timeout` s) for a signal that matches.
    func waitForSignal(timeout: Double = 15, _ matches: @escaping ([String: String]) -> Bool) -> [String: String]? {
        lines.wait(timeout: timeout) { Self.signals(in: $0).first(where: matches) }
    }
}

/// A D-Bus error as bus-peer.py reports it.
struct BusPeerError: Error, Equatable {
    var name: String
    var message: String
}
