import ArgumentParser
import Foundation
import SextantProtocol
import SextantTraces

extension TraceCommand {
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a trace: its path on a map and timelines of orientation, posture and GPS state.",
            discussion: """
                OUT ends in .svg (an SVG picture) or .html (one self-contained page with the picture \
                the trace's figures and event list, interactive: hover, zoom, pan). With --events, the NDJSON of `watch --json`, it also shows \
                what each app received: reduced fixes, fixes withheld, denied stretches.
                """)
        @Argument(help: "The trace file.", completion: .file()) var path: String
        @Option(name: .shortAndLong, help: "The picture to write: .svg or .html (replaced if it exists).", completion: .file()) var output: String
        @Option(help: ArgumentHelp("Events to overlay: the NDJSON of `sextantctl watch --json`.", valueName: "file"), completion: .file()) var events: String?
        @Option(
            help: ArgumentHelp(
                "A basemap for the .html page: a tile URL template such as https://tile.example.org/{z}/{x}/{y}.png (off by default: the page loads nothing).",
                valueName: "url-template")) var tiles: String?
        @OptionGroup var options: FileOptions

        func run() throws {
            try reporting {
                let lower = output.lowercased()
                guard lower.hasSuffix(".svg") || lower.hasSuffix(".html") || lower.hasSuffix(".htm") else {
                    throw Failure("\(output): unknown picture extension: expected .svg or .html")
                }
                if tiles != nil, lower.hasSuffix(".svg") {
                    throw Failure("\(output): --tiles draws a basemap on the .html page only; an SVG is drawn offline")
                }
                let (trace, _) = try options.load(path)
                var overlay = PlotEvents()
                if let events {
                    do {
                        overlay = try PlotEvents.parse(try TraceLoader.contents(ofFile: events), path: events)
                    } catch let error as TraceError {
                        throw Failure("\(error)")
                    } catch {
                        throw Failure("\(error)")
                    }
                }
                do {
                    let basemap = try tiles.map { template throws(TraceExportError) in try TileTemplate(template) }
                    let plot = try TracePlot(trace: trace, title: URL(fileURLWithPath: path).lastPathComponent, events: overlay, tiles: basemap)
                    try AtomicFile.write(lower.hasSuffix(".svg") ? plot.svg() : plot.html(), to: output)
                } catch {
                    throw Failure("\(error)")
                }
                options.output(["output": .string(output), "width": .int(Int64(TracePlot.width)), "height": .int(Int64(TracePlot.height))]) { _ in
                    "\(output): \(TracePlot.width)×\(TracePlot.height)"
                }
            }
        }
    }
}
