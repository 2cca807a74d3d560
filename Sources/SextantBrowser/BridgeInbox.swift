import SextantProtocol
import Synchronization

/// What waits for the bridge's loop, bounded whatever the rates on either side.
///
/// The loop sends each input to the browser as CDP commands and waits for their answers,
/// which takes longer than a replay at 100× takes to produce a fix. A reading that a newer
/// reading of the same kind makes stale (a position, a heading, the device's orientation,
/// the posture, the fused motion, the ambient light: each an override the page holds) waits at most once: the newer one takes
/// its place, at the end of the line, so the page is given the latest fix rather than a
/// growing backlog of old ones (a phone's browser also hands a page the current position,
/// not every fix it missed). Every other event from Sextant (authorization, services,
/// interface orientation, ...) waits in order; they come at the rate people change things.
/// A page's calls of the bridge's binding wait at most `browserEventLimit`, the oldest
/// dropped and counted: a page that calls it in a loop cannot grow the bridge. The browser's
/// other events (a page attached or gone, a navigation held for its page's set-up) are not
/// dropped one by one, since a held navigation lost would hang its page: a browser opens
/// pages and navigates far slower than the bridge sets them up, so at most `pageEventLimit`
/// wait, and one more is refused (`push` answers false): the connection is then closed
/// with an error, and a browser that floods the bridge cannot grow it either.
public final class BridgeInbox: Sendable {
    public static let browserEventLimit = 1024
    public static let pageEventLimit = 4096

    private struct State {
        var waiting: [BrowserBridge.Input] = []
        var browserEvents = 0
        var droppedBrowserEvents = 0
        var pageEvents = 0
    }

    private let state = Mutex(State())
    /// One element whenever something was pushed since the last `take()`.
    public let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    public init() {
        (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `input`; false, and nothing queued, when it is a page event over the limit.
    @discardableResult
    public func push(_ input: BrowserBridge.Input) -> Bool {
        let queued = state.withLock { state in
            if Self.isPageEvent(input) {
                guard state.pageEvents < Self.pageEventLimit else { return false }
                state.pageEvents += 1
            }
            if let kind = Self.staleKind(of: input), let older = state.waiting.firstIndex(where: { Self.staleKind(of: $0) == kind }) {
                state.waiting.remove(at: older)
            }
            if Self.isBindingCall(input) {
                if state.browserEvents == Self.browserEventLimit, let oldest = state.waiting.firstIndex(where: Self.isBindingCall) {
                    state.waiting.remove(at: oldest)
                    state.browserEvents -= 1
                    state.droppedBrowserEvents += 1
                }
                state.browserEvents += 1
            }
            state.waiting.append(input)
            return true
        }
        if queued { wake.yield() }
        return queued
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
        case .deviceMotion: return Event.deviceMotion
        case .light: return Event.light
        default: return nil
        }
    }

    private static func isPageEvent(_ input: BrowserBridge.Input) -> Bool {
        if case .cdp(let event) = input { return event.method != "Runtime.bindingCalled" }
        return false
    }

    private static func isBindingCall(_ input: BrowserBridge.Input) -> Bool {
        if case .cdp(let event) = input { return event.method == "Runtime.bindingCalled" }
        return false
    }
}
