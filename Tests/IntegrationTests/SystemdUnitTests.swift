import Foundation
import SextantTestSupport
import Testing

/// Issue 14 point 4: the units in Tools/packaging/systemd pass `systemd-analyze verify` and rate "OK"
/// (2.0 or less) in `systemd-analyze security`.
@Suite("systemd units")
struct SystemdUnitTests {
    static let unitDirectory = Repository.root + "/Tools/packaging/systemd"
    /// The highest exposure `systemd-analyze security` rates "OK".
    static let highestAcceptedExposure = 2.0

    /// The units copied to a directory of their own, with ExecStart= pointing at the built
    /// daemon: verify refuses a unit whose program is missing, and the installed path
    /// (/usr/sbin) is not there on a build machine.
    static func unitsWithBuiltDaemon() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("units")
        for name in try FileManager.default.contentsOfDirectory(atPath: unitDirectory) {
            let text = try String(contentsOfFile: unitDirectory + "/" + name, encoding: .utf8)
            try text.replacingOccurrences(of: "ExecStart=/usr/sbin/sextantd ", with: "ExecStart=\(Binaries.sextantd) ")
                .write(toFile: directory.file(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test("The service runs the installed daemon, /usr/sbin/sextantd, the path the copies rewrite")
    func execStartNamesTheInstalledDaemon() throws {
        for service in ["sextantd.service", "sextantd@.service"] {
            let text = try String(contentsOfFile: Self.unitDirectory + "/" + service, encoding: .utf8)
            #expect(text.contains("\nExecStart=/usr/sbin/sextantd "), "\(service)")
        }
    }

    @Test("issue 36.9: both services bound the daemon's memory (MemoryMax=) and every file it writes, the state directory's store included (LimitFSIZE=)")
    func servicesAreBounded() throws {
        for service in ["sextantd.service", "sextantd@.service"] {
            let text = try String(contentsOfFile: Self.unitDirectory + "/" + service, encoding: .utf8)
            for directive in ["MemoryMax=512M", "MemorySwapMax=0", "LimitFSIZE=64M"] {
                #expect(text.contains("\n\(directive)\n"), "\(service): \(directive)")
            }
        }
    }

    @Test(
        "systemd-analyze verify accepts every unit, the template's as an instance",
        arguments: [
            ["sextantd.service", "sextantd.socket", "sextantd-control.socket"],
            ["sextantd@farm7.service", "sextantd@farm7.socket", "sextantd-control@farm7.socket"],
        ])
    func verify(units: [String]) throws {
        let copies = try Self.unitsWithBuiltDaemon()
        let directory = copies.path
        let result = try run(["/usr/bin/systemd-analyze", "verify", "--man=no"] + units.map { directory + "/" + $0 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "verify complained:\n\(result.stderr)")
    }

    @Test("systemd-analyze security --offline rates both services OK (exposure 2.0 or less)", arguments: ["sextantd.service", "sextantd@farm7.service"])
    func securityExposure(service: String) throws {
        let copies = try Self.unitsWithBuiltDaemon()
        let directory = copies.path
        let result = try run(["/usr/bin/systemd-analyze", "security", "--offline=true", "--no-pager", directory + "/" + service])
        #expect(result.status == 0, "\(result.stderr)")
        let marker = "Overall exposure level for \(service): "
        let line = result.stdout.split(separator: "\n").first { $0.contains(marker) }
        let figure = line.flatMap { $0.components(separatedBy: marker).last?.split(separator: " ").first }.flatMap { Double($0) }
        let exposure = try #require(figure, "no exposure level in:\n\(result.stdout)")
        #expect(exposure <= Self.highestAcceptedExposure, "exposure \(exposure):\n\(result.stdout)")
    }
}
