import Foundation

/// `--launch`: Debian's Chromium started headless with a private profile and DevTools on a
/// port of its choosing; its address is read from the line Chromium prints on stderr.
public final class ChromiumLauncher: Sendable {
    public let devToolsAddress: String
    private let process: Process
    private let profile: URL

    public init(executable: String, extraArguments: [String] = []) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("sextant-browser-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var arguments = [
            "--headless", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--user-data-dir=\(profile.path)",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu", ChromiumLauncher.allowOrigin,
        ]
        // Chromium refuses to run as root inside its sandbox.
        if getuid() == 0 { arguments.append("--no-sandbox") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + extraArguments + ["about:blank"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw LaunchFailure("cannot start \(executable): \(error)") }
        guard let address = Self.readAddress(from: stderr.fileHandleForReading) else {
            process.terminate()
            throw LaunchFailure("\(executable) printed no DevTools address (is it Chromium?)")
        }
        devToolsAddress = address
    }

    /// The bridge's WebSocket sends no `Origin`, which Chromium accepts; a client that sends
    /// `Origin: ws://127.0.0.1` (a DevTools tool beside it) is let in too.
    public static let allowOrigin = "--remote-allow-origins=ws://127.0.0.1"

    /// Whether the browser is still running.
    public var isRunning: Bool { process.isRunning }

    /// Stops the browser and removes its profile.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: profile)
    }

    private static func readAddress(from handle: FileHandle) -> String? {
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            pending.append(chunk)
            let text = String(decoding: pending, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("DevTools listening on ") {
                let address = String(line.dropFirst("DevTools listening on ".count)).trimmingCharacters(in: .whitespaces)
                // Chromium goes on writing to stderr: drain it so that it never blocks on a full pipe.
                Thread { while !handle.availableData.isEmpty {} }.start()
                return address
            }
        }
    }
}

public struct LaunchFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
