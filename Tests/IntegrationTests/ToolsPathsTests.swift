import Foundation
import Testing

/// Issue 37.5: Tools/ is sorted into folders by role, and scripts, tests, docs and man pages
/// name its files by path. Every `Tools/…` a file of the repository names must exist, so a
/// script moved without its callers (or a caller written against the old place) fails here
/// rather than in CI's one step that happens to run it.
@Suite("Tools/ paths named in the repository")
struct ToolsPathsTests {
    /// What is searched: everything a reader or a script may follow, not build output.
    static let entries = [".ci", "Benchmarks", "Fuzz", "Makefile", "README.md", "Sources", "Tests", "Tools",
                          "Traces", "clients", "deploy", "docs", "examples", "web"]
    /// Folders that are build output, caches or ignored finds, wherever they are.
    static let skipped: Set<String> = [".build", ".build-fuzz", ".git", "__pycache__", "crashes", "node_modules"]
    static let largestFile = 1 << 20

    /// `Tools/` followed by a path, not part of a longer word (DevTools/…) or name.
    static let pattern = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.-])Tools/[A-Za-z0-9_./*@-]*[A-Za-z0-9_*-]"#)

    static func paths(in text: String) -> Set<String> {
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    /// The text files under `entry` (relative to the root), each under `largestFile`.
    static func textFiles(under entry: String) -> [String] {
        let root = Repository.root
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "/" + entry, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [entry] }
        guard let walker = FileManager.default.enumerator(atPath: root + "/" + entry) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if skipped.contains(name) {
                walker.skipDescendants()
                continue
            }
            let size = (walker.fileAttributes?[.size] as? Int) ?? 0
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular, size < largestFile {
                files.append(entry + "/" + relative)
            }
        }
        return files
    }

    /// A path names a file or folder that exists; one with a wildcard, a folder that does.
    static func exists(_ path: String) -> Bool {
        let literal = path.contains("*") ? (path as NSString).deletingLastPathComponent : path
        return FileManager.default.fileExists(atPath: Repository.root + "/" + literal)
    }

    @Test("issue 37.5: every Tools/… path a script, test, doc or man page names exists")
    func namedToolsExist() throws {
        var missing: [String] = []
        var named = 0
        for file in Self.entries.flatMap(Self.textFiles(under:)) {
            guard let data = FileManager.default.contents(atPath: Repository.root + "/" + file),
                  let text = String(data: data, encoding: .utf8) else { continue }
            for path in Self.paths(in: text).sorted() {
                named += 1
                if !Self.exists(path) { missing.append("\(file): \(path)") }
            }
        }
        #expect(named > 100, "the search finds the repository's Tools/ paths (\(named))")
        #expect(missing.isEmpty, "files name Tools/ paths that do not exist:\n\(missing.joined(separator: "\n"))")
    }
}
