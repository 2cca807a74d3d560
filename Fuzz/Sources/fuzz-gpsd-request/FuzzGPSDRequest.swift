import SextantGPSD
import SextantProtocol

/// The bytes a gpsd client sends to the gpsd face: cut into requests as the face's framer
/// cuts them, each parsed, each `?WATCH` applied to the client's watch. Every scan must use
/// bytes (or wait for more), and every request must start with `?` and fit the limit.
func fuzzGPSDRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))[...]
    var watch = GPSDWatch()
    while !bytes.isEmpty {
        switch GPSDRequestScan.next(in: bytes) {
        case .incomplete(let skip):
            precondition(skip >= 0 && skip <= bytes.count, "skip \(skip) of \(bytes.count)")
            return 0
        case .tooLong:
            return 0
        case .request(let start, let end):
            precondition(start >= 0 && start <= end && end < bytes.count, "request \(start)..<\(end) of \(bytes.count)")
            let request = bytes[(bytes.startIndex + start)..<(bytes.startIndex + end)]
            precondition(request.first == UInt8(ascii: "?") && request.count <= GPSDRequestScan.maxLength + 1)
            let text = String(decoding: request, as: UTF8.self)
            if case .watch(let members?) = try? GPSDRequest.parse(text[...]) {
                watch = (try? watch.applying(members)) ?? watch
            }
            bytes = bytes[(bytes.startIndex + end + 1)...]
        }
    }
    _ = watch.wantsNMEA
    return 0
}
