// NMEAThroughput: how fast Sextant's NMEA reader turns a log into a trace.
//
//     NMEAThroughput LOG [RUNS]
//
// Reads LOG once into memory, then decodes it RUNS times (default 5) with
// `NMEAReader.read`, the whole path a replay takes (checksums, fields, epochs, dates,
// samples). Prints the best and the median run in MB/s and sentences/s; the sentence
// count is the number of lines that start with `$` or `!`.

import Foundation
import SextantCore
import SextantTraces

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: NMEAThroughput LOG [RUNS]\n".utf8))
    exit(2)
}
let path = arguments[1]
let runs = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 5) : 5
guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
    FileHandle.standardError.write(Data("NMEAThroughput: cannot read \(path) as UTF-8\n".utf8))
    exit(1)
}
let megabytes = Double(data.count) / 1_000_000
let sentences = text.split(whereSeparator: \.isNewline).filter { $0.first == "$" || $0.first == "!" }.count

var seconds: [Double] = []
var samples = 0
let clock = ContinuousClock()
for _ in 0..<runs {
    var trace: Trace?
    let elapsed = clock.measure { trace = try? NMEAReader.read(text, path: path) }
    guard let trace else {
        FileHandle.standardError.write(Data("NMEAThroughput: \(path) is not an NMEA log\n".utf8))
        exit(1)
    }
    samples = trace.samples.count
    seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
seconds.sort()
let best = seconds[0], median = seconds[seconds.count / 2]
print(String(format: "input        %.1f MB, %d sentences, %d samples out", megabytes, sentences, samples))
print(String(format: "best   %6.3f s  %7.1f MB/s  %10.0f sentences/s", best, megabytes / best, Double(sentences) / best))
print(String(format: "median %6.3f s  %7.1f MB/s  %10.0f sentences/s  (%d runs)", median, megabytes / median, Double(sentences) / median, runs))
