import SextantCore
import SextantGPSD
import SextantProtocol

/// One line from gpsd (a network peer), received at a fixed instant.
func fuzzGPSDReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let report = try? GPSDReport.decode(line: line, receivedAt: Timestamp(nanoseconds: 1_772_352_000_000_000_000)) else { return 0 }
    if case .position(let fix) = report {
        // The location event's form of the fix must be JSON that parses.
        _ = try? JSONValue.parse(JSONValue.object(fix.jsonMembers(includingTime: true)).serialized())
    }
    return 0
}
