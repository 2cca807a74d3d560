/// A basemap's tile URL template for the plot's HTML page, as slippy-map tools take it:
/// `https://tile.example.org/{z}/{x}/{y}.png`, optionally `{s}.` as the host's first label
/// (a, b or c). Only an http or https URL; its origin is the one place the page may load
/// images from (the page's Content-Security-Policy), and nothing else leaves the machine.
public struct TileTemplate: Sendable, Equatable {
    public let template: String
    /// `https://tile.example.org`, or `https://*.tile.example.org` for a `{s}` host.
    public let origin: String

    public init(_ template: String) throws(TraceExportError) {
        func refuse(_ reason: String) -> TraceExportError { TraceExportError("--tiles \(template): \(reason)") }
        guard let separator = template.range(of: "://") else { throw refuse("expected an http:// or https:// URL template such as https://tile.example.org/{z}/{x}/{y}.png") }
        let scheme = template[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw refuse("expected an http:// or https:// URL, not \(scheme):") }
        for part in ["{z}", "{x}", "{y}"] where !template.contains(part) { throw refuse("the template has no \(part)") }
        // Quotes, spaces and the policy's own separators could not stand in its header.
        if let bad = template.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7F || "\"'<>\\;,`".unicodeScalars.contains($0) }) {
            throw refuse("the character U+\(String(bad.value, radix: 16, uppercase: true)) cannot stand in a tile URL")
        }
        var host = String(template[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        if host.hasPrefix("{s}.") { host = "*." + host.dropFirst(4) }
        guard !host.isEmpty, !host.contains("{"), !host.contains("@") else {
            throw refuse("the host must be a name (with {s}. only as its first label), e.g. https://{s}.tile.example.org/{z}/{x}/{y}.png")
        }
        self.template = template
        origin = scheme + "://" + host
    }
}
