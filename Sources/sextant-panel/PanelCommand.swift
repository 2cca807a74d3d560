import ArgumentParser
import Foundation
import SextantPanel
import SextantProtocol

/// `sextant-panel`: the control panel in the browser, for one daemon.
struct PanelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sextant-panel",
        abstract: "Serve a control panel for sextantd in the browser: the map, the phone, the apps and their prompts, the replay.",
        discussion: """
            Listens on 127.0.0.1 and a free port unless --listen is given, and prints one line, \
            http://127.0.0.1:PORT/#token=TOKEN, once it accepts connections: open it, or give \
            --open, which hands the URL to the browser through a file only you can read (never \
            on a command line). The page needs that token; the panel talks to the daemon through \
            control.sock as you, so it can do nothing your sextantctl could not. See docs/panel.md.
            """,
        version: sextantVersion)

    @Option(help: ArgumentHelp("The daemon's control socket (default RUNTIME-DIR/control.sock).", valueName: "path")) var socket: String?
    @Option(name: .customLong("runtime-dir"), help: ArgumentHelp("The daemon's runtime directory (holds control.sock).", valueName: "dir")) var runtimeDirectory: String?
    @Option(help: ArgumentHelp("Listen on HOST:PORT instead of 127.0.0.1 and a free port. Another address than loopback lets anyone who has the token control the daemon.", valueName: "host:port"))
    var listen: String?
    @Flag(help: "Open the panel in a browser: xdg-open of a file only you can read that leads the browser to the URL.") var open = false
    @Option(help: ArgumentHelp("A tile URL template for a basemap, as https://tile.example/{z}/{x}/{y}.png (default: none, a grid).", valueName: "url-template"))
    var tiles: String?
    @Option(help: ArgumentHelp("The folder of traces the page may open (default: a checkout's Traces/ when run from one, else $XDG_DATA_HOME/sextant/traces).", valueName: "dir")) var traces: String?
    @Option(help: ArgumentHelp("The page's files (default: the installed share/sextant/panel).", valueName: "dir")) var assets: String?
    @Option(help: ArgumentHelp("Leaflet's files (default: \(PanelConfiguration.debianLeaflet), Debian's libjs-leaflet).", valueName: "dir"))
    var leaflet: String?
    @Option(help: ArgumentHelp("The offline base map, a GeoJSON made by Tools/dev/make-basemap.py from Debian's gmt-gshhg-low (default: $XDG_CACHE_HOME/sextant/basemap.geojson; without it, a grid).", valueName: "file"))
    var basemap: String?

    func validate() throws {
        if let tiles, ContentPolicy.tileSource(tiles) == nil {
            throw ValidationError("--tiles \(tiles): expected an http(s) URL template such as https://tile.example/{z}/{x}/{y}.png")
        }
    }

    var executable: String { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0] }

    func run() async throws {
        let listenAddress: ListenAddress
        do { listenAddress = try listen.map { try ListenAddress(parsing: $0) } ?? .loopback } catch { throw ValidationError("\(error)") }
        guard let socketPath = socket ?? (runtimeDirectory ?? DefaultPaths.runtimeDirectory(environment: ProcessInfo.processInfo.environment, uid: UInt32(getuid()))).map({ $0 + "/" + DefaultPaths.controlSocketName }) else {
            throw ValidationError(DefaultPaths.noRuntimeDirectory)
        }
        let configuration = PanelConfiguration(
            socketPath: socketPath, listen: listenAddress, tiles: tiles, tracesDirectory: traces ?? PanelConfiguration.defaultTraces(executable: executable, environment: ProcessInfo.processInfo.environment),
            assetsDirectory: assets ?? PanelConfiguration.defaultAssets(executable: executable),
            leafletDirectory: leaflet ?? PanelConfiguration.debianLeaflet,
            basemap: basemap ?? PanelConfiguration.defaultBasemap(environment: ProcessInfo.processInfo.environment))
        if tiles == nil, let file = configuration.basemap, !FileManager.default.fileExists(atPath: file) {
            FileHandle.standardError.write(Data("sextant-panel: no offline base map at \(file) (the map is a grid): Tools/dev/make-basemap.py \(file) makes it from Debian's gmt-gshhg-low\n".utf8))
        }
        if !listenAddress.isLoopback {
            FileHandle.standardError.write(Data("sextant-panel: warning: listening on \(listenAddress), not loopback: anyone who can reach it and has the token controls the daemon\n".utf8))
        }
        let server = PanelServer(configuration: configuration, access: PanelAccess(listen: listenAddress))
        let open = self.open
        let launcher = OpenFile()
        defer { launcher.remove() }
        do {
            try await server.run { url in
                // Written at once (no stdio buffer): a script waits for this line.
                FileHandle.standardOutput.write(Data((url + "\n").utf8))
                if open { launcher.open(url) }
            }
        } catch let error as PanelError {
            FileHandle.standardError.write(Data("sextant-panel: \(error.description)\n".utf8))
            throw ExitCode(69)
        }
    }
}

