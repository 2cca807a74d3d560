import Foundation

/// What a GPX file's bytes are checked for before Foundation's `XMLParser` (libxml2) sees
/// them, refusing what that parser cannot take safely. The parser reads a file through
/// `GPXCheckedInput`, which runs these checks a window at a time (`GPXPreflightScan`);
/// `problem(in:)` runs them over a whole buffer, the reference the scan is tested against. Fuzzing found two inputs that crash the process
/// inside swift-corelibs-foundation: a tag name with bytes that are not UTF-8, and a
/// processing instruction without data (`<?x?>`, a NULL passed to strlen). So a GPX file
/// must be UTF-8 without NUL bytes, declare no other encoding (else libxml2 would decode
/// bytes into markup this scan did not see), hold no DOCTYPE (GPX needs none; it is also
/// where entities, which could expand into such markup, are declared) and no processing
/// instruction without data.
enum GPXPreflight {
    /// Encodings under which the bytes mean what this scan reads (the markup is ASCII).
    static let encodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"]

    /// The first problem and its 1-based line, or nil.
    static func problem(in data: Data) -> (line: Int, reason: String)? {
        var line = 1
        var bytes = data.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                if scalar == "\0" { return (line, "a NUL byte (GPX is read as UTF-8 text)") }
            case .emptyInput: break loop
            case .error: return (line, "not UTF-8 text (GPX is read as UTF-8)")
            }
        }
        return data.withUnsafeBytes { markupProblem(in: $0.bindMemory(to: UInt8.self)) }
    }

    /// A DOCTYPE, a processing instruction without data, or an encoding declared other
    /// than UTF-8 (or an ASCII-compatible one).
    static func markupProblem(in b: UnsafeBufferPointer<UInt8>) -> (line: Int, reason: String)? {
        var line = 1
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        func at(_ text: String, _ k: Int) -> Bool {
            let t = Array(text.utf8)
            return k + t.count <= b.count && (0..<t.count).allSatisfy { b[k + $0] == t[$0] }
        }
        while i < b.count {
            if b[i] == 0x0A { line += 1 }
            guard b[i] == UInt8(ascii: "<"), i + 1 < b.count else {
                i += 1
                continue
            }
            if at("<!DOCTYPE", i) { return (line, "a DOCTYPE: GPX needs none, and entities are not expanded") }
            if b[i + 1] == UInt8(ascii: "?") {
                var k = i + 2
                while k < b.count, !isSpace(b[k]), b[k] != UInt8(ascii: "?") { k += 1 }
                let target = String(decoding: b[(i + 2)..<k], as: UTF8.self)
                while k < b.count, isSpace(b[k]) { k += 1 }
                if at("?>", k) { return (line, "a processing instruction <?\(target)?> without data") }
                if target == "xml", let encoding = declaredEncoding(b, from: k), !encodings.contains(encoding.lowercased()) {
                    return (line, "encoding \(encoding): GPX is read as UTF-8")
                }
            }
            i += 1
        }
        return nil
    }

    /// The `encoding="…"` of an XML declaration whose pseudo-attributes start at `from`.
    static func declaredEncoding(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> String? {
        var end = from
        while end + 1 < b.count, !(b[end] == UInt8(ascii: "?") && b[end + 1] == UInt8(ascii: ">")) { end += 1 }
        let declaration = String(decoding: b[from..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return "" }
        return String(rest.dropFirst().prefix { $0 != quote })
    }
}
