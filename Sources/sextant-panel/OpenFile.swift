import Foundation
import SextantPanel
import Synchronization

/// `--open` without the token on any command line: `xdg-open URL` and the browser it starts
/// would keep the URL in their argv, which every user reads in /proc/PID/cmdline. The URL
/// goes instead into a page of a private folder (0700, in $XDG_RUNTIME_DIR or the temporary
/// folder), readable by its owner only (0600), that sends the browser on to it; xdg-open and
/// the browser get the file's path. The folder goes when the panel stops.
final class OpenFile: Sendable {
    private let folder = Mutex<String?>(nil)

    func open(_ url: String) {
        do {
            let path = try write(url)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", path]
            try process.run()
        } catch {
            FileHandle.standardError.write(Data("sextant-panel: cannot open a browser: \(error)\n".utf8))
        }
    }

    /// The page, written in a new private folder; its path.
    func write(_ url: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSTemporaryDirectory()
        var template = Array((base + "/sextant-panel.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw PanelError("cannot create a private folder in \(base): \(String(cString: strerror(errno)))")
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        folder.withLock { $0 = directory }
        let path = directory + "/open.html"
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PanelError("cannot create \(path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: Data(Self.page(url).utf8))
        try handle.close()
        return path
    }

    /// A page that sends the browser to `url` at once, with a link should it not.
    static func page(_ url: String) -> String {
        let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <!doctype html>
            <meta charset="utf-8">
            <meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0;url=\(escaped)">
            <title>Sextant panel</title>
            <p><a href="\(escaped)">Open the Sextant panel</a></p>

            """
    }

    func remove() {
        guard let directory = folder.withLock({ $0 }) else { return }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
