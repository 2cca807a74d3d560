import NIOCore
import SextantProtocol

/// What a gpsd client asked for with `?WATCH`, as gpsd keeps it per client: each request
/// changes the members it names and keeps the others.
struct GPSDWatch: Equatable {
    var enable = false
    var json = false
    var nmea = false
    /// 1 and 2 are answered with the NMEA Sextant generates (it has no receiver bytes).
    var raw = 0
    var scaled = false
    var timing = false
    var split24 = false
    var pps = false
    /// Only this device's reports; nil for all.
    var device: String?

    /// This watch changed by a `?WATCH` object's members.
    func applying(_ members: [String: JSONValue]) throws(GPSDRequestError) -> GPSDWatch {
        var next = self
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "class": continue
            case "enable": next.enable = try Self.flag(key, value)
            case "json": next.json = try Self.flag(key, value)
            case "nmea": next.nmea = try Self.flag(key, value)
            case "scaled": next.scaled = try Self.flag(key, value)
            case "timing": next.timing = try Self.flag(key, value)
            case "split24": next.split24 = try Self.flag(key, value)
            case "pps": next.pps = try Self.flag(key, value)
            case "raw":
                guard let level = value.intValue, (0...2).contains(level) else {
                    throw GPSDRequestError("Invalid WATCH: \"raw\" must be 0, 1 or 2")
                }
                next.raw = level
            case "device":
                guard let path = value.stringValue else { throw GPSDRequestError("Invalid WATCH: \"device\" must be a string") }
                next.device = path
            default:
                continue  // gpsd ignores members it does not know, and so do we
            }
        }
        return next
    }

    /// Whether NMEA sentences go out: asked for, or raw (Sextant's raw is its NMEA).
    var wantsNMEA: Bool { nmea || raw > 0 }

    private static func flag(_ key: String, _ value: JSONValue) throws(GPSDRequestError) -> Bool {
        guard let flag = value.boolValue else { throw GPSDRequestError("Invalid WATCH: \"\(key)\" must be true or false") }
        return flag
    }
}

/// A request a gpsd client can send (gpsd_json(5) "Commands").
enum GPSDRequest: Equatable {
    /// `?WATCH;` (nil: report the watch) or `?WATCH={...};`.
    case watch([String: JSONValue]?)
    case poll
    case devices
    /// `?DEVICE;`, or `?DEVICE={...};` (a configuration, which Sextant refuses).
    case device(configure: Bool)
    case version

    /// One request, `?` included, its `;` or newline left off.
    static func parse(_ text: Substring) throws(GPSDRequestError) -> GPSDRequest {
        let (verb, argument) = split(text)
        switch verb {
        case "?WATCH":
            guard let argument else { return .watch(nil) }
            return .watch(try object(argument, of: "WATCH"))
        case "?POLL": return .poll
        case "?DEVICES": return .devices
        case "?DEVICE":
            guard let argument else { return .device(configure: false) }
            _ = try object(argument, of: "DEVICE")
            return .device(configure: true)
        case "?VERSION": return .version
        default:
            throw GPSDRequestError("Unrecognized request '\(text.prefix(64))'")
        }
    }

    private static func split(_ text: Substring) -> (Substring, Substring?) {
        guard let equals = text.firstIndex(of: "=") else { return (text, nil) }
        return (text[..<equals], text[text.index(after: equals)...])
    }

    private static func object(_ text: Substring, of verb: String) throws(GPSDRequestError) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(String(text))
        } catch {
            throw GPSDRequestError("Invalid \(verb): \(error.description)")
        }
        guard let members = value.objectValue else { throw GPSDRequestError("Invalid \(verb): expected a JSON object") }
        return members
    }
}

/// A request gpsd would answer with `{"class":"ERROR","message":...}`.
struct GPSDRequestError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Cuts a gpsd client's bytes into requests: each starts with `?` and ends at `;` or a
/// newline (libgps sends `;\n`, some scripts only one of them); a `;` inside a JSON
/// string does not end one. Bytes outside a request are skipped, as gpsd skips them.
/// A request longer than `maxLength` is reported once as `.tooLong`.
struct GPSDRequestFramer: ByteToMessageDecoder {
    typealias InboundOut = GPSDFrame

    /// gpsd's own limit on a client request is about 1 KiB; some room beyond it.
    static let maxLength = 4096

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let start = view.firstIndex(of: UInt8(ascii: "?")) else {
            buffer.moveReaderIndex(forwardBy: view.count)
            return .needMoreData
        }
        buffer.moveReaderIndex(forwardBy: start - view.startIndex)
        let bytes = buffer.readableBytesView
        var inString = false
        var escaped = false
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ";") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                let length = index - bytes.startIndex
                let request = buffer.readString(length: length)!
                buffer.moveReaderIndex(forwardBy: 1)
                context.fireChannelRead(wrapInboundOut(.request(request)))
                return .continue
            }
            if index - bytes.startIndex >= Self.maxLength {
                buffer.moveReaderIndex(forwardBy: bytes.count)
                context.fireChannelRead(wrapInboundOut(.tooLong))
                return .needMoreData
            }
        }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

enum GPSDFrame: Equatable {
    case request(String)
    case tooLong
}
