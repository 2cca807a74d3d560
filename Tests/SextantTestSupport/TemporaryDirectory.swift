import Foundation

/// A directory of one test's own under the system's temporary directory, removed with
/// everything in it when the last reference goes: held by a harness or a suite's instance,
/// or by a test function's local constant for the length of the test.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// `sextant-NAME-XXXXXXXX` in `parent`, with `mode` (0700 unless another user must
    /// reach it).
    public init(_ name: String, mode: Int = 0o700, in parent: String = NSTemporaryDirectory()) throws {
        path = (parent.hasSuffix("/") ? parent : parent + "/") + "sextant-" + name + "-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` inside the directory; its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let target = file(name)
        try text.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }
}
