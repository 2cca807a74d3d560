import SextantBrowser
import SextantProtocol
import Testing

/// What waits for the bridge's loop stays bounded whatever the replay's speed or a page's
/// calls (issue 26, "Performance": a 10-minute run at 100× grew the bridge and lagged the
/// page by 86 s while every fix waited its turn).
@Suite("Bridge inbox")
struct BridgeInboxTests {
    static func location(_ latitude: Double) throws -> BrowserBridge.Input {
        let params = try JSONValue.parse(
            #"{"lat":\#(latitude),"lon":2.29,"time":"2026-03-01T10:00:00Z","hAcc":5,"accuracy":"full","simulated":true}"#)
        return .app(.event(try SextantEvent(method: Event.location, params: params)))
    }

    static func authorization(_ status: String) throws -> BrowserBridge.Input {
        let params = try JSONValue.parse(#"{"status":"\#(status)","accuracy":"full"}"#)
        return .app(.event(try SextantEvent(method: Event.authorization, params: params)))
    }

    static func browserEvent(_ number: Int) -> BrowserBridge.Input {
        .cdp(CDPEvent(method: "Runtime.bindingCalled", params: ["payload": .string("call \(number)")], sessionID: "S1"))
    }

    /// The latitudes of the locations and the statuses of the authorizations, in order.
    static func summary(_ inputs: [BrowserBridge.Input]) -> [String] {
        inputs.map { input in
            switch input {
            case .app(.event(.location(let fix))): return "location \(fix.latitude)"
            case .app(.event(.authorization(let result))): return "authorization \(result.status.rawValue)"
            case .cdp(let event): return event.params["payload"]?.stringValue ?? "?"
            default: return "other"
            }
        }
    }

    @Test("issue 40.7: a newer ambient light replaces the one still waiting (a light replayed fast cannot grow the bridge)")
    func newerLightReplacesStale() throws {
        let inbox = BridgeInbox()
        for lux in [100.0, 200, 300] {
            inbox.push(.app(.event(.light(WireLight(lux: lux, time: Timestamp(seconds: 0))))))
        }
        let waiting = inbox.take().inputs
        guard waiting.count == 1, case .app(.event(.light(let light))) = waiting[0] else {
            Issue.record("\(waiting.count) inputs waiting, not the latest light alone")
            return
        }
        #expect(light.lux == 300)
    }

    @Test("A newer fix replaces the one still waiting, behind what came between; an authorization is never replaced")
    func newerFixReplacesStale() throws {
        let inbox = BridgeInbox()
        inbox.push(try Self.location(48.1))
        inbox.push(try Self.authorization("authorizedAlways"))
        inbox.push(try Self.location(48.2))
        inbox.push(try Self.authorization("authorizedWhenInUse"))
        inbox.push(try Self.location(48.3))
        let (inputs, dropped) = inbox.take()
        #expect(Self.summary(inputs) == ["authorization authorizedAlways", "authorization authorizedWhenInUse", "location 48.3"])
        #expect(dropped == 0)
        #expect(inbox.take().inputs.isEmpty)
    }

    @Test("A page calling the bridge in a loop: at most the limit waits, the oldest call dropped and counted, the browser's other events kept")
    func browserEventsBounded() throws {
        let inbox = BridgeInbox()
        let extra = 10
        inbox.push(try Self.authorization("denied"))
        let held = CDPEvent(method: "Fetch.requestPaused", params: ["requestId": "R1"])
        inbox.push(.cdp(held))
        for number in 0..<(BridgeInbox.browserEventLimit + extra) { inbox.push(Self.browserEvent(number)) }
        let (inputs, dropped) = inbox.take()
        #expect(dropped == extra)
        #expect(inputs.count == BridgeInbox.browserEventLimit + 2)
        // A held navigation is never the one dropped: its page would hang.
        guard case .cdp(let kept) = inputs[1] else { Issue.record("\(inputs[1])"); return }
        #expect(kept == held)
        #expect(Self.summary([inputs[0], inputs[2]]) == ["authorization denied", "call \(extra)"])
        inbox.push(Self.browserEvent(0))
        let next = inbox.take()
        #expect(next.inputs.count == 1 && next.droppedBrowserEvents == 0)
    }

    @Test("The loop is woken by a push made before it waits")
    func wakesForEarlierPush() async throws {
        let inbox = BridgeInbox()
        inbox.push(try Self.location(48.5))
        var wakeUps = inbox.wakeUps.makeAsyncIterator()
        #expect(await wakeUps.next() != nil)
        #expect(Self.summary(inbox.take().inputs) == ["location 48.5"])
    }
}
