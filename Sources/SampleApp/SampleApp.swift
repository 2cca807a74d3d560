import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

/// A minimal app using Sextant the way a real app would: say hello, ask for permission,
/// start a location stream, print what arrives. Read it as an example of the app protocol.
@main
struct SampleApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sextant-sample-app",
        abstract: "A sample app: asks for location permission and prints the events it receives.")

    @Option(name: .customLong("runtime-dir"), help: ArgumentHelp("The daemon's runtime directory (holds app.sock).", valueName: "dir"))
    var runtimeDirectory: String?

    @Option(help: "The app id to present.") var app = "com.example.sample"
    @Option(help: "whenInUse or always.") var level = "whenInUse"
    @Option(name: .customLong("distance-filter"), help: "Metres between delivered locations.") var distanceFilter: Double = 0
    @Option(help: "Exit after this many locations (0: run until the daemon goes away).") var count = 0

    func run() throws {
        guard let directory = runtimeDirectory ?? DefaultPaths.runtimeDirectory(environment: ProcessInfo.processInfo.environment, uid: UInt32(getuid()))
        else {
            FileHandle.standardError.write(Data("sextant-sample-app: \(DefaultPaths.noRuntimeDirectory)\n".utf8))
            throw ExitCode(1)
        }
        do {
            let daemon = try SextantConnection.app(runtimeDirectory: directory)
            let hello = try daemon.call(Method.hello, ["app": .string(app)])
            say("hello: session \(hello["session"] ?? .null), authorization \(hello["authorization"]?["status"]?.stringValue ?? "?")")

            say("asking for location permission (\(level))…")
            let decided = try daemon.call(Method.authorizationRequest, ["level": .string(level)], timeout: 600)
            say("permission: \(decided["status"]?.stringValue ?? "?"), \(decided["accuracy"]?.stringValue ?? "?") accuracy")
            guard decided["status"]?.stringValue?.hasPrefix("authorized") == true else {
                say("no permission: nothing to show")
                return
            }
            _ = try daemon.call(Method.locationStart, ["distanceFilter": .double(distanceFilter)])
            _ = try daemon.call(Method.orientationStart)
            var received = 0
            while count == 0 || received < count {
                let event: ServerEvent
                do {
                    event = try daemon.nextEvent(timeout: 3600)
                } catch ClientError.timedOut {
                    continue
                }
                switch event.method {
                case Event.location:
                    received += 1
                    let p = event.params
                    say(String(format: "location %.5f, %.5f ±%.0fm  %@", p["lat"]?.doubleValue ?? 0, p["lon"]?.doubleValue ?? 0, p["hAcc"]?.doubleValue ?? 0, p["time"]?.stringValue ?? ""))
                case Event.authorization:
                    say("authorization changed: \(event.params["status"]?.stringValue ?? "?")")
                case Event.deviceOrientation, Event.interfaceOrientation:
                    let what = event.method == Event.deviceOrientation ? "device" : "interface"
                    say("\(what) orientation: \(event.params["previous"]?.stringValue ?? "none") → \(event.params["orientation"]?.stringValue ?? "?")")
                default:
                    say("\(event.method): \(event.params.serialized())")
                }
            }
        } catch ClientError.closed {
            say("the daemon went away")
        } catch {
            say("error: \(error)")
            throw ExitCode(1)
        }
    }

    func say(_ text: String) {
        print("  app │ \(text)")
        fflush(nil)  // line by line, also into a pipe
    }
}
