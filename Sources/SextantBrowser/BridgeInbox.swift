import SextantProtocol
import Synchronization

/// What waits for the bridge's loop, bounded whatever the rates on either side.
///
/// The loop sends each input to the browser as CDP commands and waits for their answers,
/// which takes longer than a replay at 100× takes to produce a fix. A reading that a newer
/// reading of the same kind makes stale (a position, a heading, the device's orientation,
/// the posture, the accelerometer: each an override the page holds) waits at most once: the newer one takes
/// its place, at the end of the line, so the page is given the latest fix rather than a
/// growing backlog of old ones (a phone's browser also hands a page the current position,
/// not every fix it missed). Every other event from Sextant (authorization, services,
/// interface orientation, ...) waits in order; they come at the rate people change things.
/// The browser's own events wait at most `browserEventLimit`, the oldest dropped and
/// counted: a page that calls the bridge's binding in a loop cannot grow the bridge.
public final class BridgeInbox: Sendable {
    public static let browserEventLimit = 1024

    private struct State {
        var waiting: [BrowserBridge.Input] = []
        var browserEvents = 0
        var droppedBrowserEvents = 0
    }

    private let state = Mutex(State())
    /// One element whenever something was pushed since the last `take()`.
    public let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    public init() {
        (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func push(_ input: BrowserBridge.Input) {
        state.withLock { state in
            if let kind = Self.staleKind(of: input), let older = state.waiting.firstIndex(where: { Self.staleKind(of: $0) == kind }) {
                state.waiting.remove(at: older)
            }
            if case .cdp = input {
                if state.browserEvents == Self.browserEventLimit, let oldest = state.waiting.firstIndex(where: Self.isBrowserEvent) {
                    state.waiting.remove(at: oldest)
                    state.browserEvents -= 1
                    state.droppedBrowserEvents += 1
                }
                state.browserEvents += 1
            }
            state.waiting.append(input)
        }
        wake.yield()
    }

    /// Everything waiting, in order, and how many browser events were dropped since the
    /// last call.
    public func take() -> (inputs: [BrowserBridge.Input], droppedBrowserEvents: Int) {
        state.withLock { state in
            defer { state = State() }
            return (state.waiting, state.droppedBrowserEvents)
        }
    }

    /// The kind a newer input of which makes this one stale; nil when every one counts.
    static func staleKind(of input: BrowserBridge.Input) -> String? {
        guard case .app(.event(let event)) = input else { return nil }
        switch event {
        case .location: return Event.location
        case .heading: return Event.heading
        case .deviceOrientation: return Event.deviceOrientation
        case .posture: return Event.posture
        case .motion: return Event.motion
        default: return nil
        }
    }

    private static func isBrowserEvent(_ input: BrowserBridge.Input) -> Bool {
        if case .cdp = input { return true }
        return false
    }
}
