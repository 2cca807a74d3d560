import Foundation
import SextantTestSupport
import Testing

/// The daemon's memory as the kernel counts it (proc(5)), for the tests that bound it.
extension DaemonHarness {
    /// Resident memory (`VmRSS`) or its peak since `resetMemoryPeak` (`VmHWM`), in KiB.
    func memoryKiB(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// Sets the peak (VmHWM) back to the resident memory now (proc(5), clear_refs).
    func resetMemoryPeak() throws {
        try "5".write(toFile: "/proc/\(process.processIdentifier)/clear_refs", atomically: false, encoding: .utf8)
    }
}

/// An NMEA log of `epochs` fixes at 5 Hz from 2026-03-01T00:00:00Z (GGA then RMC, with
/// checksums), walking north: 134 bytes an epoch.
func syntheticNMEA(epochs: Int) -> String {
    func sentence(_ body: String) -> String {
        let sum = body.utf8.dropFirst().reduce(UInt8(0), ^)
        return body + "*" + String(sum, radix: 16, uppercase: true).leftPadded(to: 2) + "\n"
    }
    var text = ""
    text.reserveCapacity(epochs * 150)
    for i in 0..<epochs {
        let centiseconds = i * 20
        let seconds = centiseconds / 100
        let time = "\((seconds / 3600).padded)\((seconds / 60 % 60).padded)\((seconds % 60).padded).\((centiseconds % 100).padded)"
        let tenThousandths = i % 500_000
        let lat = "48\(10 + tenThousandths / 10_000)." + String(tenThousandths % 10_000).leftPadded(to: 4)
        text += sentence("$GPGGA,\(time),\(lat),N,00221.000,E,1,08,0.9,45.4,M,46.9,M,,")
        text += sentence("$GPRMC,\(time),A,\(lat),N,00221.000,E,2.9,0.0,010326,,,A")
    }
    return text
}

extension Int {
    fileprivate var padded: String { self < 10 ? "0\(self)" : "\(self)" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// A GPX track of `points` points one second apart from 2026-03-01T00:00:00Z, with
/// elevations and times, walking north: about 95 bytes a point.
func syntheticGPX(points: Int) -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"sextant tests\"><trk><trkseg>\n"
    text.reserveCapacity(points * 140)
    for i in 0..<points {
        let seconds = i % 86_400
        let time = "2026-03-\((1 + i / 86_400).padded)T\((seconds / 3600).padded):\((seconds / 60 % 60).padded):\((seconds % 60).padded)Z"
        let tenMillionths = i % 10_000_000
        let lat = "48.\(String(tenMillionths).leftPadded(to: 7))"
        text += "<trkpt lat=\"\(lat)\" lon=\"2.3500000\"><ele>\(i % 100)</ele><time>\(time)</time></trkpt>\n"
    }
    return text + "</trkseg></trk></gpx>\n"
}

/// The peak resident memory of a command, in KiB (a Python parent that runs it alone and
/// reads its children's `ru_maxrss`).
func peakKiB(of command: [String]) throws -> (result: CommandResult, peak: Int) {
    let script = "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True); "
        + "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    let result = try run(["/usr/bin/python3", "-c", script] + command)
    let words = result.stdout.split(separator: " ").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    return (result, words.count == 2 && words[0] == "0" ? Int(words[1]) ?? -1 : -1)
}
