import ArgumentParser
import Foundation

/// The private store directory of `sextantd --ephemeral`: made with mkdtemp(3) (mode 0700,
/// a name no other run can hold) under `$TMPDIR` or /tmp, and removed with everything in it
/// when the daemon exits, so that runs never see each other's permissions or policy.
struct EphemeralDirectory {
    let path: String

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/sextantd-ephemeral-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            FileHandle.standardError.write(Data("sextantd: --ephemeral: cannot create a directory in \(base): \(String(cString: strerror(errno)))\n".utf8))
            throw ExitCode(1)
        }
        path = String(cString: made)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
