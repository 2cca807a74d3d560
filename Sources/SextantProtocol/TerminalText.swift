/// Strings that others wrote (an app's id, a region's identifier, a purpose string, a
/// peer's line) made safe to show on a terminal or in a log: a control character would
/// otherwise move the cursor, rewrite earlier lines, set the window's title or forge a
/// log entry (ESC, CR, a newline), and a bidirectional override would show text in another
/// order than it is. Each such character is written as a visible escape instead: `\n`,
/// `\r`, `\t`, `\x1b` for the rest of C0 and DEL, `\u{9b}` for C1 and the bidi controls.
/// Everything else, backslashes included, is kept as it is.
///
/// One function for every human output of the command-line tools and the daemon's log
/// lines (docs/security.md "What reaches a terminal").
public enum TerminalText {
    /// `text` with every control character and bidi control escaped, newlines included:
    /// for a field, a cell, a log line.
    public static func escaped(_ text: String) -> String { escape(text, keepingNewlines: false) }

    /// `text` with every control character and bidi control escaped but its newlines (and
    /// tabs): for a whole output whose lines the program itself made.
    public static func escapedKeepingLines(_ text: String) -> String { escape(text, keepingNewlines: true) }

    /// JSON text (as ``JSONValue/serialized()`` writes it, C0 already escaped) with DEL,
    /// C1 and the bidi controls written as JSON's `\uXXXX`: still the same JSON, and safe on
    /// a terminal. Those characters occur only inside strings, where the escape means them.
    public static func jsonForTerminal(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { isUnsafe($0) }) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard isUnsafe(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
        }
        return String(out)
    }

    /// Whether a scalar must not reach a terminal as it is: C0, DEL, C1, the bidi controls
    /// (ALM, LRM, RLM, LRE…RLO, LRI…PDI) and the line and paragraph separators.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func escape(_ text: String, keepingNewlines: Bool) -> String {
        func kept(_ scalar: Unicode.Scalar) -> Bool { !isUnsafe(scalar) || (keepingNewlines && (scalar == "\n" || scalar == "\t")) }
        guard !text.unicodeScalars.allSatisfy(kept) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if kept(scalar) {
                out.append(scalar)
            } else {
                out.append(contentsOf: visible(scalar).unicodeScalars)
            }
        }
        return String(out)
    }

    private static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let hex = String(scalar.value, radix: 16)
            return scalar.value <= 0x7F ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{" + hex + "}"
        }
    }
}
