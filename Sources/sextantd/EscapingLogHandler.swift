import Logging
import SextantProtocol

/// The daemon's log handler around another (journald's lines or plain stderr): every
/// message and metadata value is escaped (``TerminalText/escaped(_:)``) before it is
/// written. Log lines carry what apps and peers wrote (app ids, region identifiers, purpose
/// strings, a gpsd peer's line): a newline in one must not forge a journal entry, nor an
/// ESC drive the terminal of whoever reads the log (docs/security.md).
struct EscapingLogHandler: LogHandler {
    var inner: any LogHandler

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var escaped = event
        escaped.message = "\(TerminalText.escaped(event.message.description))"
        escaped.metadata = event.metadata.map(Self.escaped)
        inner.log(event: escaped)
    }

    static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata { metadata.mapValues(escaped) }

    static func escaped(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let s): .string(TerminalText.escaped(s))
        case .stringConvertible(let c): .string(TerminalText.escaped(c.description))
        case .dictionary(let d): .dictionary(escaped(d))
        case .array(let a): .array(a.map(escaped))
        }
    }
}
