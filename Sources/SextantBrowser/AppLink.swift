import Foundation
import SextantClient
import SextantProtocol
import Synchronization

/// The bridge's session on app.sock: one app like any other (`hello` with the app id), on a
/// thread of its own because `SextantConnection` blocks. Its events go to `events` in the
/// order they came; what the pages ask of Sextant is queued with `ask` and sent between reads.
public final class AppLink: Sendable {
    /// What the pages ask of Sextant.
    public enum Request: Sendable, Equatable {
        /// A page asked for its position: while the app has no decision this is its
        /// `authorization.request` (L4), which raises Sextant's prompt.
        case authorization
        /// The pages' visibility: foreground while one is visible (L8).
        case state(AppState)
    }

    /// What the link hands the bridge.
    public enum Input: Sendable {
        case event(SextantEvent)
        case closed(String)
    }

    /// What the pages asked that is not sent yet, bounded whatever they do: the latest
    /// state only (the app's state is what the pages last said; a page flipping its
    /// visibility in a loop must not become as many `app.update`s), and whether a page asked
    /// for its position.
    struct Asked: Sendable, Equatable {
        var state: AppState?
        var authorization = false

        mutating func add(_ request: Request) {
            switch request {
            case .authorization: authorization = true
            case .state(let latest): state = latest
            }
        }
    }

    private let requests = Mutex(Asked())

    private init() {}

    public func ask(_ request: Request) { requests.withLock { $0.add(request) } }

    /// Connects, says `hello` and starts the streams a page can hear (location once
    /// authorized, orientation, posture, heading, motion); returns what `hello` answered.
    public static func open(
        runtimeDirectory: String, app: String, events: AsyncStream<Input>.Continuation
    ) async throws -> (AppLink, HelloResult) {
        let link = AppLink()
        let hello = try await withCheckedThrowingContinuation { (started: CheckedContinuation<HelloResult, any Error>) in
            let thread = Thread {
                let connection: SextantConnection
                let hello: HelloResult
                do {
                    connection = try SextantConnection.app(runtimeDirectory: runtimeDirectory)
                    hello = try connection.call(Hello(app: app, state: .foreground, orientations: InterfaceOrientation.allCases))
                    for method in [Method.orientationStart, Method.postureStart] { try connection.send(method) }
                    try connection.send(HeadingStart(filter: 1))
                    try connection.send(MotionStart(interval: BrowserPicture.motionInterval))
                } catch {
                    return started.resume(throwing: error)
                }
                started.resume(returning: hello)
                link.serve(connection, authorization: hello.authorization, servicesEnabled: hello.servicesEnabled, events: events)
            }
            thread.name = "app.sock"
            thread.start()
        }
        return (link, hello)
    }

    /// Reads events and sends what the pages asked, until the daemon closes the socket.
    private func serve(
        _ connection: SextantConnection, authorization: AuthorizationResult, servicesEnabled: Bool, events: AsyncStream<Input>.Continuation
    ) {
        var status = authorization.status
        var servicesEnabled = servicesEnabled
        var streaming = false
        var unanswered = Unanswered()
        do {
            while true {
                if !streaming, servicesEnabled, status == .authorizedWhenInUse || status == .authorizedAlways {
                    try connection.send(LocationStart())
                    streaming = true
                }
                try unanswered.takeAnswers(connection)
                try send(to: connection, status: status, unanswered: &unanswered)
                // Requests wait at most this long; events are read the moment they come.
                guard let event = try Self.nextEvent(connection, timeout: 0.05) else { continue }
                switch event {
                case .authorization(let result): status = result.status
                case .servicesEnabled(let enabled): servicesEnabled = enabled
                default: break
                }
                streaming = streaming && servicesEnabled && (status == .authorizedWhenInUse || status == .authorizedAlways)
                events.yield(.event(event))
            }
        } catch {
            events.yield(.closed("app.sock: \(error)"))
        }
        connection.close()
    }

    /// Sends what the pages asked, one request of a kind at a time: a state waits until the
    /// previous `app.update` is answered (then only the latest goes), and a page's request
    /// for its position while one `authorization.request` waits adds nothing.
    private func send(to connection: SextantConnection, status: AuthorizationStatus, unanswered: inout Unanswered) throws {
        let asked = requests.withLock { asked in
            defer {
                asked.authorization = false
                if unanswered.state == nil { asked.state = nil }
            }
            return asked
        }
        if let state = asked.state, unanswered.state == nil {
            unanswered.state = try connection.send(AppUpdate(state: state))
        }
        if asked.authorization, status == .notDetermined, unanswered.authorization == nil {
            unanswered.authorization = try connection.send(AuthorizationRequest(level: .whenInUse))
        }
    }

    /// The requests sent whose answers have not come: read as they come, so that neither
    /// the daemon's queue to the bridge nor the connection's store of answers grows.
    struct Unanswered {
        var state: JSONValue?
        var authorization: JSONValue?

        mutating func takeAnswers(_ connection: SextantConnection) throws {
            state = try Self.take(state, connection)
            authorization = try Self.take(authorization, connection)
        }

        /// Nil once the answer to `id` has come (an error answer as well: the pages'
        /// state or request is then the daemon's to refuse).
        private static func take(_ id: JSONValue?, _ connection: SextantConnection) throws -> JSONValue? {
            guard let id, try connection.hasResponse(to: id) else { return id }
            do { _ = try connection.response(to: id, timeout: 0) } catch ClientError.rpc {}
            return nil
        }
    }

    private static func nextEvent(_ connection: SextantConnection, timeout: Double) throws -> SextantEvent? {
        do {
            return try connection.nextEvent(timeout: timeout).decoded()
        } catch ClientError.timedOut {
            return nil
        }
    }
}
