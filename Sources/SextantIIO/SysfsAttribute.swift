#if canImport(Glibc)
import Glibc
#endif

/// Why a sysfs attribute could not be read.
public enum SysfsReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not there (or its device is gone: ENOENT, ENODEV, ENXIO).
    case gone(path: String, errno: Int32)
    /// The file is there but reading it failed (EIO, EBUSY, EAGAIN...): worth trying again.
    case failed(path: String, errno: Int32)
    /// The file holds something that is not a number.
    case notANumber(path: String, text: String)

    /// True when the device is no longer there, so it is dropped rather than retried.
    public var deviceIsGone: Bool {
        if case .gone = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .gone(let path, let code): return "\(path): \(String(cString: strerror(code)))"
        case .failed(let path, let code): return "\(path): \(String(cString: strerror(code)))"
        case .notANumber(let path, let text): return "\(path): not a number: \"\(text)\""
        }
    }
}

/// Reads sysfs attribute files by path, afresh at every call.
///
/// Each read opens, reads and closes the file: sysfs produces a new value at every open,
/// whereas libudev caches an attribute's value on the `udev_device` it read it from, so a
/// held device would go on showing the first reading. Plain `open(2)`/`read(2)` also go
/// through umockdev's preload, which the tests rely on.
public enum SysfsAttribute {
    /// Sysfs values fit in a page.
    static let maximumLength = 4096

    /// The file's text without surrounding blanks.
    public static func text(at path: String) throws(SysfsReadError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw error(path: path, errno: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw error(path: path, errno: errno)
            }
            count += n
        }
        return String(decoding: buffer[..<count], as: UTF8.self).strippingBlanks().description
    }

    /// The file's number (sysfs writes integers and fixed-point decimals such as `0.009576806`).
    public static func number(at path: String) throws(SysfsReadError) -> Double {
        let text = try text(at: path)
        guard let value = Double(text), value.isFinite else { throw .notANumber(path: path, text: text) }
        return value
    }

    /// The file's number, or nil when there is no such file (an optional attribute).
    public static func optionalNumber(at path: String) throws(SysfsReadError) -> Double? {
        do {
            return try number(at: path)
        } catch .gone {
            return nil
        }
    }

    /// The file's text, or nil when there is no such file.
    public static func optionalText(at path: String) throws(SysfsReadError) -> String? {
        do {
            return try text(at: path)
        } catch .gone {
            return nil
        }
    }

    /// Whether the file is there (a channel the device offers).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    private static func error(path: String, errno code: Int32) -> SysfsReadError {
        switch code {
        case ENOENT, ENODEV, ENXIO, ENOTDIR: return .gone(path: path, errno: code)
        default: return .failed(path: path, errno: code)
        }
    }
}
