import Foundation
import SextantTestSupport
import Testing

/// Issue 28.7: `trace route`, `trace convert` and `trace plot` write by what their output
/// path is: a regular file is replaced (its mode kept), a device, a FIFO or standard output
/// is written to, a symbolic link is written through, and anything else is refused with a
/// message. Devices are made in the test's own directory: the machine's are never at stake.
@Suite("Where a trace command's output goes")
struct TraceOutputTargetTests {
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("output-target") }

    /// `trace route` of a few fixes, as GPX, to `output`.
    func route(to output: String) throws -> CommandResult {
        try run([Binaries.sextantctl, "trace", "route", "48.8583,2.2945", "48.8590,2.2950", "--to", "gpx", "-o", output])
    }

    func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test("Issue 28.7: a character device stays one and is written to", .requires(.root("mknod of a null device")))
    func characterDevice() throws {
        let null = scratch.file("null")
        try #require(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "mknod: \(String(cString: strerror(errno)))")
        let result = try route(to: null)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(kind(null) == S_IFCHR)
    }

    @Test("Issue 28.7: a symbolic link to /dev/null is written through; the link and the device stay")
    func linkToDevNull() throws {
        let link = scratch.file("null-link")
        #expect(symlink("/dev/null", link) == 0)
        let result = try route(to: link)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(kind(link) == S_IFLNK)
        #expect(kind("/dev/null") == S_IFCHR)
    }

    @Test("Issue 28.7: a FIFO is written into, and a reader reads the trace from it")
    func fifo() throws {
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened first, without waiting, so that the writer finds its reader; the route is
        // far smaller than a pipe's buffer, so the writer never waits on the reader.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let result = try route(to: fifo)
        #expect(result.status == 0, "\(result.stderr)")
        var bytes = [UInt8](repeating: 0, count: 65536)
        let got = read(reader, &bytes, bytes.count)
        let text = String(decoding: bytes.prefix(max(0, got)), as: UTF8.self)
        #expect(text.contains("<gpx") && text.contains("</gpx>"), "\(text)")
        #expect(kind(fifo) == S_IFIFO)
    }

    @Test("Issue 28.7: standard output, named /proc/self/fd/1 or through a link to /dev/stdout, is written to", arguments: ["/proc/self/fd/1", "link"])
    func standardOutput(name: String) throws {
        var path = name
        if name == "link" {
            path = scratch.file("stdout")
            #expect(symlink("/dev/stdout", path) == 0)
        }
        let result = try route(to: path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("<?xml") && result.stdout.contains("</gpx>"), "\(result.stdout)")
        if name == "link" { #expect(kind(path) == S_IFLNK) }
    }

    @Test("Issue 28.7: a regular file is replaced with its mode kept; through a link, the file it names is, and the link stays")
    func regularFileAndLink() throws {
        let file = try scratch.write("old.gpx", "old\n")
        #expect(chmod(file, 0o640) == 0)
        #expect(try route(to: file).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("</gpx>"))
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o640)

        let target = try scratch.write("target.gpx", "old\n")
        #expect(chmod(target, 0o600) == 0)
        let link = scratch.file("link.gpx")
        #expect(symlink(target, link) == 0)
        let result = try route(to: link)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(kind(link) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("</gpx>"))
        #expect(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o600)
        // No temporary file is left beside either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("Issue 28.7: a directory or a socket is refused by name and left as it is")
    func refused() throws {
        let directory = scratch.file("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let socket = try ReadinessNotification(path: scratch.file("sock"))
        for (path, reason) in [(directory, "is a directory"), (socket.path, "is a socket")] {
            let result = try route(to: path)
            #expect(result.status != 0)
            #expect(result.stderr.contains("\(path): \(reason)"), "\(result.stderr)")
        }
        #expect(kind(directory) == S_IFDIR && kind(socket.path) == S_IFSOCK)
    }

    @Test("Issue 28.7: trace convert to a FIFO writes into it as well")
    func convertToFIFO() throws {
        let fifo = scratch.file("convert-fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let input = try scratch.write("in.jsonl", syntheticTrace(count: 3, step: 1))
        let result = try run([Binaries.sextantctl, "trace", "convert", input, fifo, "--to", "geojson"])
        #expect(result.status == 0, "\(result.stderr)")
        var bytes = [UInt8](repeating: 0, count: 65536)
        let got = read(reader, &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(0, got)), as: UTF8.self).contains("FeatureCollection"))
        #expect(kind(fifo) == S_IFIFO)
    }
}
