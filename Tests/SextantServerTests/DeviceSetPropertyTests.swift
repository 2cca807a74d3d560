import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantHub
@testable import SextantServer

/// Random finite numbers, huge, tiny and ordinary, thrown at `device.set` and the judge
/// behind it: every answer is a result or -32602, and the hub keeps answering.
@Suite("device.set under random numbers, in process", .timeLimit(.minutes(1)))
struct DeviceSetPropertyTests {

    /// A finite double from everywhere: the edges, powers of ten, and plain values.
    static func number(_ g: inout SplitMix64) -> Double {
        switch g.next() % 6 {
        case 0: return [Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 0, -0.0].randomElement(using: &g)!
        case 1: return pow(10, Double(Int.random(in: -320...308, using: &g))) * (Bool.random(using: &g) ? 1 : -1)
        case 2: return Double.random(in: -1000...1000, using: &g)
        case 3: return Double.random(in: -200...200, using: &g)
        case 4: return Double(Int64.random(in: .min ... .max, using: &g))
        default: return Double.random(in: -1...1, using: &g) * 9.80665
        }
    }

    @Test("Random numbers in every field of device.set: a result or -32602, never a trap", arguments: [1, 2, 3])
    func randomDeviceSet(seed: UInt64) async throws {
        var g = SplitMix64(seed: seed)
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        for _ in 0..<300 {
            let params: JSONValue
            switch g.next() % 3 {
            case 0:
                params = ["acceleration": ["x": .double(Self.number(&g)), "y": .double(Self.number(&g)), "z": .double(Self.number(&g))]]
            case 1:
                params = [
                    "location": [
                        "lat": .double(Self.number(&g)), "lon": .double(Self.number(&g)), "alt": .double(Self.number(&g)),
                        "hAcc": .double(Self.number(&g)), "vAcc": .double(Self.number(&g)), "speed": .double(Self.number(&g)),
                        "course": .double(Self.number(&g)),
                    ]
                ]
            default:
                params = ["hingeAngle": .double(Self.number(&g))]
            }
            let response = try await control.request(Method.deviceSet, params)
            let code = response["error"]?["code"]?.intValue
            #expect(response["result"] != nil || code == -32602, "\(params) → \(response)")
            await hub.advance(by: .milliseconds(Int64(g.next() % 200)))
        }
        #expect(try await control.call(Method.status)["version"] != nil)
    }
}
