import Foundation
import Logging

/// Log lines for journald when stderr is the journal: each line starts with its syslog
/// priority, `<N>`, which journald strips and keeps as the entry's PRIORITY (sd-daemon(3)),
/// so that `journalctl -p warning` finds the daemon's warnings. journald stamps each entry
/// itself, so the line carries no time.
///
/// systemd says stderr is the journal by setting `JOURNAL_STREAM` to the device and inode
/// of the stream it connected (systemd.exec(5)); the daemon checks them against stderr's
/// own, since a variable inherited by a process whose stderr was then redirected elsewhere
/// (`sextantd 2>file` in a service's shell) no longer says the truth.
struct JournalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info
    private let label: String

    init(label: String) { self.label = label }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The daemon's logging: journald's lines when stderr is the journal, plain ones otherwise.
    static func bootstrap(level: Logger.Level) {
        let journal = stderrIsJournal()
        LoggingSystem.bootstrap { label in
            // Escaped whichever way it goes: lines carry what apps and peers wrote.
            var handler = EscapingLogHandler(inner: journal ? JournalLogHandler(label: label) : StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
    }

    /// Whether `JOURNAL_STREAM` names the stream stderr is connected to.
    static func stderrIsJournal(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// syslog(3)'s priority for a level: swift-log's trace and debug are both LOG_DEBUG.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        // journald ends an entry at a newline: every line of a message carries the priority.
        let prefix = "<\(Self.priority(event.level))>"
        let text = "\(label): \(event.message)\(details)".split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n") + "\n"
        // One write(2) a record, so that lines from several threads never interleave.
        text.utf8CString.withUnsafeBufferPointer { bytes in
            var offset = 0
            let count = bytes.count - 1  // without the NUL
            while offset < count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
