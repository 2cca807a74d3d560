import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantHub
@testable import SextantServer

/// The `location` line written straight into bytes (``LocationLine``) against the general
/// encoder it replaces on the hot path (`RPCMessage.notification` of `LocationFix.json`):
/// byte for byte the same, for every fix `LocationFix.problem` lets through (issue 12).
@Suite("location lines: the fixed-shape encoder writes the general encoder's bytes (seeded)")
struct LocationLineTests {

    static let allocator = ByteBufferAllocator()

    static func fast(_ fix: LocationFix, _ accuracy: LocationAccuracy?) -> String {
        var buffer = allocator.buffer(capacity: 16)
        LocationLine.write(fix, accuracy: accuracy, into: &buffer)
        return buffer.readString(length: buffer.readableBytes)!
    }

    static func general(_ fix: LocationFix, _ accuracy: LocationAccuracy?) -> String {
        RPCMessage.notification(method: Event.location, params: fix.json(accuracy: accuracy)).line
    }

    /// A value in `range` from everywhere the wire may meet: its ends, zero and minus
    /// zero, the smallest doubles, whole numbers, trace-like decimals, every magnitude.
    static func value(in range: ClosedRange<Double>, _ g: inout SplitMix64) -> Double {
        let candidate: Double
        switch g.next() % 7 {
        case 0:
            candidate = [range.lowerBound, range.upperBound, 0, -0.0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e15, 1e15 - 1, 999_999_999_999_999.9]
                .randomElement(using: &g)!
        case 1: candidate = Double.random(in: range, using: &g).rounded()
        case 2:
            let places = Double(Int.random(in: 1...9, using: &g))
            candidate = (Double.random(in: range, using: &g) * pow(10, places)).rounded() / pow(10, places)
        case 3: candidate = pow(10, Double(Int.random(in: -323...7, using: &g))) * Double.random(in: 1..<10, using: &g)
        case 4: candidate = Double(sign: .plus, exponent: Int.random(in: -1074...20, using: &g), significand: 1).nextUp
        case 5: candidate = Double(bitPattern: g.next())
        default: candidate = Double.random(in: range, using: &g)
        }
        // Out of range (or not finite): try again; in range, either sign when allowed.
        let signed = range.lowerBound < 0 && Bool.random(using: &g) ? -candidate : candidate
        return range.contains(signed) ? signed : value(in: range, &g)
    }

    static func fix(_ g: inout SplitMix64, present: Int) -> LocationFix {
        LocationFix(
            latitude: value(in: -90...90, &g), longitude: value(in: -180...180, &g),
            altitude: present & 1 != 0 ? value(in: LocationFix.altitudeRange, &g) : nil,
            horizontalAccuracy: value(in: 0...LocationFix.maximumAccuracy, &g),
            verticalAccuracy: present & 2 != 0 ? value(in: 0...LocationFix.maximumAccuracy, &g) : nil,
            speed: present & 4 != 0 ? value(in: 0...LocationFix.maximumSpeed, &g) : nil,
            course: present & 8 != 0 ? value(in: 0...359.99999999999994, &g) : nil,
            time: Timestamp(nanoseconds: Int64.random(in: .min ... .max, using: &g)), simulated: Bool.random(using: &g))
    }

    @Test("Generated fixes, every optional member present or absent, every accuracy: the same bytes")
    func generatedFixes() {
        var g = SplitMix64(seed: 12)
        var checked = 0
        for present in 0..<16 {
            for accuracy in [nil] + LocationAccuracy.allCases.map(Optional.some) {
                for _ in 0..<2_000 {
                    let fix = Self.fix(&g, present: present)
                    #expect(fix.problem == nil, "the generator made a fix no source delivers: \(fix)")
                    let (fast, general) = (Self.fast(fix, accuracy), Self.general(fix, accuracy))
                    #expect(fast == general, "\(fix)")
                    if fast != general { return }
                    checked += 1
                }
            }
        }
        #expect(checked == 16 * 3 * 2_000)
    }

    @Test("Known lines, written out by hand from PROTOCOL's event shape")
    func knownLines() {
        let time = Timestamp(rfc3339: "2026-03-01T08:00:00.250Z")!
        let bare = LocationFix(latitude: -0.0, longitude: 13.4, horizontalAccuracy: 5, time: time)
        #expect(
            Self.fast(bare, .full)
                == #"{"jsonrpc":"2.0","method":"location","params":{"accuracy":"full","hAcc":5,"lat":0,"lon":13.4,"simulated":false,"time":"2026-03-01T08:00:00.250Z"}}"#
                + "\n")
        let whole = LocationFix(
            latitude: 51.5007, longitude: -0.1246, altitude: 1e-5, horizontalAccuracy: 1e15, verticalAccuracy: 0.1,
            speed: 99_999.5, course: 359.5, time: time, simulated: true)
        #expect(
            Self.fast(whole, .reduced)
                == #"{"jsonrpc":"2.0","method":"location","params":{"accuracy":"reduced","alt":1e-05,"course":359.5,"hAcc":1000000000000000.0,"#
                + #""lat":51.5007,"lon":-0.1246,"simulated":true,"speed":99999.5,"time":"2026-03-01T08:00:00.250Z","vAcc":0.1}}"# + "\n")
    }

    @Test("Numbers of every bit pattern, not only a fix's, are written as JSONValue writes them")
    func everyNumber() {
        var g = SplitMix64(seed: 1012)
        var specials: [Double] = [.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.leastNonzeroMagnitude, 1e15, -1e15, 1e16]
        specials += [9_007_199_254_740_992, (9_007_199_254_740_992 as Double).nextUp, 0.1 + 0.2, 1e-4, 1e-5, 123_456_789_012_345.6, -(1e15 - 1)]
        for value in specials + (0..<50_000).map({ _ in Double(bitPattern: g.next()) }) {
            var buffer = Self.allocator.buffer(capacity: 32)
            LocationLine.writeNumber(value, into: &buffer)
            #expect(buffer.readString(length: buffer.readableBytes) == JSONValue.double(value).serialized(), "\(value.bitPattern)")
        }
        for value in [Int64.min, .max, 0, -1, 9, 10, 99, 100, 999_999_999_999_999] {
            var buffer = Self.allocator.buffer(capacity: 32)
            LocationLine.writeInteger(value, into: &buffer)
            #expect(buffer.readString(length: buffer.readableBytes) == String(value))
        }
    }
}
