import SextantProtocol

/// One line as app.sock and control.sock read it: parsed, then decoded as JSON-RPC. What
/// parses must serialize and parse again to the same value, and decode the same way.
func fuzzRPCLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let decoded = RPCMessage.decode(value)
    let again: JSONValue
    do { again = try JSONValue.parse(value.serialized()) } catch { fatalError("serialized JSON does not parse: \(error)") }
    // A double that prints as an integer comes back as one: compare by what it decodes to.
    guard again.serialized() == value.serialized() else { fatalError("JSON does not round-trip: \(value) vs \(again)") }
    if case .success(let message) = decoded { _ = message.line }
    return 0
}
