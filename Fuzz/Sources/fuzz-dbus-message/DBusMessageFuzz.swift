import SextantDBus

/// Bytes a D-Bus peer sends, parsed by sd-bus and read as the daemon reads a method call's
/// arguments: no crash, no trap, and every body read is the values its header declares.
func fuzzDBusMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    for message in DBusWireMessages.decode(Array(UnsafeBufferPointer(start: data, count: size))) {
        guard case .success(let values) = message.values else { continue }
        // A descriptor (`h`) is read as its index, an `i`.
        let declared = message.signature.replacingOccurrences(of: "h", with: "i")
        if values.signature != declared { fatalError("a body of \(message.signature) read as \(values.signature)") }
        for value in values { precondition(value.signature.count < 65_536) }
    }
    return 0
}
