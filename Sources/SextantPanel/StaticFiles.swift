import Foundation
import Hummingbird

/// Files served from one folder by name: each component of the name made of letters,
/// digits, `.`, `-` and `_`, none starting with a dot (so no `..`, no `%2e%2e`, no hidden
/// file), and the file found through symlinks still inside the folder.
struct StaticFolder: Sendable {
    let root: String

    /// The file's bytes and type, or nil (answered 404, whatever the reason).
    func file(_ components: [Substring]) -> (ByteBuffer, String)? {
        guard !components.isEmpty, components.allSatisfy(Self.isPlainName) else { return nil }
        let folder = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let path = folder + "/" + components.joined(separator: "/")
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(folder + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = FileManager.default.contents(atPath: resolved)
        else { return nil }
        return (ByteBuffer(bytes: data), Self.type(of: String(components.last!)))
    }

    func response(_ components: [Substring]) -> Response {
        guard let (bytes, type) = file(components) else {
            return PlainResponse.make(.notFound, "Not found.\n")
        }
        var response = Response(status: .ok, body: ResponseBody(byteBuffer: bytes))
        response.headers[.contentType] = type
        return response
    }

    static func isPlainName(_ name: Substring) -> Bool {
        guard let first = name.first, first != ".", name.count <= 255 else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json", "geojson": "application/geo+json", "map": "application/json", "png": "image/png",
        "svg": "image/svg+xml", "ico": "image/x-icon", "jpg": "image/jpeg", "webp": "image/webp", "woff2": "font/woff2",
        "txt": "text/plain; charset=utf-8",
    ]

    static func type(of name: String) -> String {
        let ext = name.split(separator: ".").last.map { String($0).lowercased() } ?? ""
        return types[ext] ?? "application/octet-stream"
    }
}
