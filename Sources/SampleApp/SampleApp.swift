import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantClient
import SextantProtocol

/// A minimal app using Sextant the way a real app would: say hello, ask for permission,
/// start a location stream, print what arrives. Read it as an example of the app protocol.
struct SampleApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sextant-sample-app",
        abstract: "A sample app: asks for location permission and prints the events it receives.")

    @Option(name: .customLong("runtime-dir"), help: ArgumentHelp("The daemon's runtime directory (holds app.sock).", valueName: "dir"))
    var runtimeDirectory: String?

    @Option(help: "The app id to present.") var app = "com.example.sample"
    @Option(help: "whenInUse or always.") var level = "whenInUse"
    @Option(name: .customLong("distance-filter"), help: "Metres between delivered locations.") var distanceFilter: Double = 0
    @Option(help: "Exit after this many locations (0: run until the daemon goes away).") var count = 0

    func run() async throws {
        guard let directory = runtimeDirectory ?? DefaultPaths.runtimeDirectory(environment: Self.environment(), uid: UInt32(getuid()))
        else {
            var message = "sextant-sample-app: \(DefaultPaths.noRuntimeDirectory)\n"
            _ = message.withUTF8 { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            throw ExitCode(1)
        }
        do {
            try await session(with: try SextantConnection.app(runtimeDirectory: directory))
        } catch ClientError.closed {
            say("the daemon went away")
        } catch {
            say("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// Says hello, asks for permission, then shows what arrives.
    func session(with daemon: SextantConnection) async throws {
        let hello = try await daemon.request(Hello(app: app))
        say("hello: session \(hello.session), authorization \(hello.authorization.status.rawValue)")

        say("asking for location permission (\(level))…")
        // Answered once the person decides, however long that takes.
        let decided = try await daemon.request(try Self.authorizationRequest(level: level))
        say("permission: \(decided.status.rawValue), \(decided.accuracy.rawValue) accuracy")
        guard decided.status.isAuthorized else {
            say("no permission: nothing to show")
            return
        }
        _ = try await daemon.request(LocationStart(distanceFilter: distanceFilter))
        _ = try await daemon.request(OrientationStart())
        var received = 0
        while count == 0 || received < count {
            let event = try await daemon.notification()
            switch Self.decoded(event) {
            case .location(let fix):
                received += 1
                say("location \(Self.fixed(fix.latitude, 5)), \(Self.fixed(fix.longitude, 5)) ±\(Self.fixed(fix.horizontalAccuracy ?? 0, 0))m  \(fix.time?.rfc3339 ?? "")")
            case .authorization(let authorization):
                say("authorization changed: \(authorization.status.rawValue)")
            case .deviceOrientation(let change):
                say("device orientation: \(change.previous.rawValue) → \(change.orientation.rawValue)")
            case .interfaceOrientation(let change):
                say("interface orientation: \(change.previous?.rawValue ?? "none") → \(change.orientation.rawValue)")
            default:
                say("\(event.method): \(event.params.serialized())")
            }
        }
    }

    /// The event typed, or nil for one this app does not read.
    static func decoded(_ event: ServerEvent) -> SextantEvent? {
        do { return try event.decoded() } catch { return nil }
    }

    /// `--level` read as the daemon reads `level`: a word it would refuse gets its -32602.
    static func authorizationRequest(level: String) throws -> AuthorizationRequest {
        do { return try AuthorizationRequest(Params(["level": .string(level)])) } catch { throw ClientError.rpc(error) }
    }

    /// The process's environment, read without Foundation: an app that links only
    /// SextantClient does not load Foundation's 6 MiB of code for `ProcessInfo`.
    static func environment() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }

    /// `value` with `digits` digits after the point, as printf's `%.Nf` writes it.
    static func fixed(_ value: Double, _ digits: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = Int(withVaList([digits, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) })
        if length >= buffer.count {  // 1e300 has 301 digits
            buffer = [CChar](repeating: 0, count: length + 1)
            length = Int(withVaList([digits, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) })
        }
        return String(decoding: buffer.prefix(max(0, min(length, buffer.count - 1))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func say(_ text: String) {
        print("  app │ \(text)")
        fflush(nil)  // line by line, also into a pipe
    }
}
