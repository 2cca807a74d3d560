import SextantProtocol

/// A gpsd client's requests as gpsd 3.22 reads them (gpsd_json(5) "Commands", and how
/// gpsd's daemon takes a client's bytes): each read from the socket is taken whole and on
/// its own, never joined to the next one. So a request needs no terminator at the end of
/// a read (Python's gps3 sends `?WATCH={"enable":true,"json":true}` alone), a read may
/// carry several, and a request cut across two reads is two pieces: the first answered as
/// what it is (an unknown request, say), the second ignored unless it starts with `?`.
///
/// Within a read:
/// - a read that does not start with `?` is ignored whole (gpsd answers nothing);
/// - white space (space, tab, CR, LF) between requests is skipped;
/// - `?VERSION;`, `?DEVICES;`, `?POLL;`, `?WATCH;` and `?DEVICE;` need their `;`: without
///   it they are unknown requests (`?VERSION\n` is an `ERROR`, as from gpsd);
/// - `?WATCH=` and `?DEVICE=` take one JSON object, which ends at its closing brace; a `;`
///   right after it is used too, anything else starts the next request;
/// - an unknown request, or an argument that is not a JSON object, uses the rest of the
///   read (gpsd answers it with one `ERROR`).
///
/// Pure: the face calls it once per read, with at most ``readSize`` bytes.
public enum GPSDRequestReader {
    /// The most gpsd takes in one read (its BUFSIZ, less room for the NUL it adds); the
    /// face reads no more at once, so that a long write is cut where gpsd would cut it.
    public static let readSize = 8191

    /// The requests in one read, in order: each parsed, or the `ERROR` gpsd gives for it.
    public static func requests(in read: some Collection<UInt8>) -> [Result<GPSDRequest, GPSDRequestError>] {
        let bytes = Array(read)
        guard bytes.first == UInt8(ascii: "?") else { return [] }
        var results: [Result<GPSDRequest, GPSDRequestError>] = []
        var index = 0
        while index < bytes.count {
            if isSpace(bytes[index]) {
                index += 1
                continue
            }
            let (result, next) = request(in: bytes, at: index)
            results.append(result)
            index = next
        }
        return results
    }

    /// The request that starts at `start`, and where the next one may start.
    private static func request(in bytes: [UInt8], at start: Int) -> (Result<GPSDRequest, GPSDRequestError>, Int) {
        for (word, request) in plainRequests where bytes.hasPrefix(word, at: start) {
            return (.success(request), start + word.count)
        }
        for (verb, name) in [("?WATCH=", "WATCH"), ("?DEVICE=", "DEVICE")] where bytes.hasPrefix(Array(verb.utf8), at: start) {
            return argument(in: bytes, at: start + verb.utf8.count, of: name)
        }
        let rest = String(decoding: bytes[start...], as: UTF8.self).trimmingSuffix(while: \.isWhitespace)
        return (.failure(GPSDRequestError("Unrecognized request '\(rest.prefix(64))'")), bytes.count)
    }

    /// The requests without an argument, each with its `;`.
    private static let plainRequests: [([UInt8], GPSDRequest)] = [
        (Array("?DEVICES;".utf8), GPSDRequest.devices), (Array("?DEVICE;".utf8), GPSDRequest.device(configure: false)),
        (Array("?WATCH;".utf8), GPSDRequest.watch(nil)), (Array("?POLL;".utf8), GPSDRequest.poll),
        (Array("?VERSION;".utf8), GPSDRequest.version),
    ]

    /// `?WATCH=` or `?DEVICE=`'s object from `start`, and where the next request may start.
    private static func argument(in bytes: [UInt8], at start: Int, of verb: String) -> (Result<GPSDRequest, GPSDRequestError>, Int) {
        guard let end = objectEnd(in: bytes, from: start) else {
            let text = String(decoding: bytes[start...], as: UTF8.self)
            return (.failure(Self.invalid(text, of: verb)), bytes.count)
        }
        let next = end < bytes.count && bytes[end] == UInt8(ascii: ";") ? end + 1 : end
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        do throws(GPSDRequestError) {
            let members = try GPSDRequest.object(text[...], of: verb)
            return (.success(verb == "WATCH" ? .watch(members) : .device(configure: true)), next)
        } catch {
            return (.failure(error), next)
        }
    }

    private static func invalid(_ text: String, of verb: String) -> GPSDRequestError {
        do throws(GPSDRequestError) {
            _ = try GPSDRequest.object(text[...], of: verb)
            return GPSDRequestError("Invalid \(verb): expected a JSON object")
        } catch {
            return error
        }
    }

    /// Just past the brace that closes the JSON object starting at `start`; nil when the
    /// read holds no object there, or not all of it. Braces and brackets inside strings
    /// do not count.
    static func objectEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for index in start..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
        }
        return nil
    }

    /// C's isspace in the C locale, as gpsd skips between requests.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}

extension Array where Element == UInt8 {
    fileprivate func hasPrefix(_ prefix: [UInt8], at start: Int) -> Bool {
        start + prefix.count <= count && self[start..<(start + prefix.count)].elementsEqual(prefix)
    }
}

extension StringProtocol {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var text = self[...]
        while let last = text.last, predicate(last) { text = text.dropLast() }
        return Substring(text)
    }
}
