import Foundation
import SextantClient
import SextantProtocol
import Synchronization

/// The bridge's session on app.sock: one app like any other (`hello` with the app id). Its
/// events go to `events` in the order they came, the moment they come; what the pages ask
/// of Sextant is queued with `ask` and sent by a task of its own, which sleeps until asked.
public final class AppLink: Sendable {
    /// What the pages ask of Sextant.
    public enum Request: Sendable, Equatable {
        /// A page asked for its position: while the app has no decision this is its
        /// `authorization.request` (L4), which raises Sextant's prompt.
        case authorization
        /// The pages' visibility: foreground while one is visible (L8).
        case state(AppState)
        /// Whether a page could read the device's motion and light: the bridge hears them
        /// (`deviceMotion.start`, `light.start`) only then, so that Sextant fuses nothing
        /// for a browser without pages (D6) and sends it nothing.
        case sensors(Bool)
    }

    /// What the link hands the bridge.
    public enum Input: Sendable {
        case event(SextantEvent)
        case closed(String)
    }

    /// What the pages asked that is not sent yet, bounded whatever they do: the latest
    /// state only (the app's state is what the pages last said; a page flipping its
    /// visibility in a loop must not become as many `app.update`s), whether a page asked
    /// for its position, and whether the sensors are to be heard (the latest again).
    struct Asked: Sendable, Equatable {
        var state: AppState?
        var authorization = false
        var sensors: Bool?

        mutating func add(_ request: Request) {
            switch request {
            case .authorization: authorization = true
            case .state(let latest): state = latest
            case .sensors(let heard): sensors = heard
            }
        }
    }

    private let requests = Mutex(Asked())
    /// Wakes the sender: one pending wake-up at most, whatever the pages ask meanwhile.
    private let asking: AsyncStream<Void>.Continuation
    private let asks: AsyncStream<Void>
    private let connection: SextantConnection
    /// What the reader learns and the sender needs: the app's authorization, and whether an
    /// `authorization.request` is unanswered.
    private let decision: Mutex<Decision>

    struct Decision {
        var status: AuthorizationStatus
        var requestPending = false
    }

    private init(connection: SextantConnection, status: AuthorizationStatus) {
        self.connection = connection
        decision = Mutex(Decision(status: status))
        (asks, asking) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func ask(_ request: Request) {
        requests.withLock { $0.add(request) }
        asking.yield()
    }

    /// Connects, says `hello` and starts the streams that change at the rate people do
    /// things (location once authorized, orientation, posture, heading); the device's motion
    /// and light wait for a page (``Request/sensors(_:)``). Returns what `hello` answered.
    /// The link then serves until the daemon closes the socket (`events` hears `.closed`).
    public static func open(
        runtimeDirectory: String, app: String, events: AsyncStream<Input>.Continuation
    ) async throws -> (AppLink, HelloResult) {
        let connection = try SextantConnection.app(runtimeDirectory: runtimeDirectory)
        let hello = try await connection.request(Hello(app: app, state: .foreground, orientations: InterfaceOrientation.allCases))
        let started = [
            try connection.send(Method.orientationStart), try connection.send(Method.postureStart),
            try connection.send(HeadingStart(filter: 1)),
        ]
        // A stream this daemon cannot start (no heading source) is the daemon's to refuse.
        for id in started { _ = try? await connection.answer(to: id) }
        let link = AppLink(connection: connection, status: hello.authorization.status)
        Task { await link.serve(servicesEnabled: hello.servicesEnabled, events: events) }
        return (link, hello)
    }

    /// Reads events and sends what the pages asked, until the daemon closes the socket.
    private func serve(servicesEnabled: Bool, events: AsyncStream<Input>.Continuation) async {
        let reason = await withTaskGroup(of: String?.self) { group in
            group.addTask { await self.sendAsked() }
            let reason = await self.read(servicesEnabled: servicesEnabled, events: events)
            group.cancelAll()
            return reason
        }
        events.yield(.closed("app.sock: \(reason)"))
        connection.close()
    }

    /// Hands on each event; starts the location stream whenever the app may have it.
    private func read(servicesEnabled: Bool, events: AsyncStream<Input>.Continuation) async -> String {
        var servicesEnabled = servicesEnabled
        var streaming = false
        do throws(ClientError) {
            while true {
                let authorized = decision.withLock { $0.status == .authorizedWhenInUse || $0.status == .authorizedAlways }
                if !streaming, servicesEnabled, authorized {
                    _ = try await connection.request(LocationStart())
                    streaming = true
                }
                let event = try await connection.event()
                switch event {
                case .authorization(let result): decision.withLock { $0.status = result.status }
                case .servicesEnabled(let enabled): servicesEnabled = enabled
                default: break
                }
                let stillAuthorized = decision.withLock { $0.status == .authorizedWhenInUse || $0.status == .authorizedAlways }
                streaming = streaming && servicesEnabled && stillAuthorized
                events.yield(.event(event))
            }
        } catch {
            return error.description
        }
    }

    /// Sends what the pages asked, one request of a kind at a time: a state waits until the
    /// previous `app.update` is answered (then only the latest goes), and a page's request
    /// for its position while one `authorization.request` waits adds nothing. Ends when
    /// cancelled or when the connection is over.
    private func sendAsked() async -> String? {
        await withDiscardingTaskGroup { group in
            for await _ in asks {
                let asked = requests.withLock { asked in
                    defer { asked = Asked() }
                    return asked
                }
                if asked.authorization, takeAuthorizationTurn() {
                    // Answered when the person decides: it waits on its own.
                    group.addTask {
                        _ = try? await self.connection.request(AuthorizationRequest(level: .whenInUse))
                        self.decision.withLock { $0.requestPending = false }
                    }
                }
                if let state = asked.state {
                    do throws(ClientError) { _ = try await connection.request(AppUpdate(state: state)) } catch .rpc {} catch { return }
                }
                if let heard = asked.sensors {
                    do throws(ClientError) { try await hearSensors(heard) } catch { return }
                }
            }
        }
        return nil
    }

    /// Starts or stops the device's motion (the fused `deviceMotion` in the game rotation
    /// vector's frame: the accelerometer's reading split into gravity and the user's
    /// acceleration, the rate, the attitude) and the ambient light. A stream this daemon
    /// cannot start is the daemon's to refuse.
    private func hearSensors(_ heard: Bool) async throws(ClientError) {
        let sent =
            heard
            ? [
                try connection.send(DeviceMotionStart(interval: BrowserPicture.motionInterval, referenceFrame: .gameRotationVector)),
                try connection.send(LightStart()),
            ] : [try connection.send(DeviceMotionStop()), try connection.send(LightStop())]
        for id in sent {
            do throws(ClientError) { _ = try await connection.answer(to: id) } catch .rpc {}
        }
    }

    /// Whether a page's request for its position is to be sent now: the app has no
    /// decision and no `authorization.request` waits.
    private func takeAuthorizationTurn() -> Bool {
        decision.withLock { decision in
            guard decision.status == .notDetermined, !decision.requestPending else { return false }
            decision.requestPending = true
            return true
        }
    }
}
