import SextantGPSD
import SextantProtocol

/// The bytes a gpsd client sends to the gpsd face, read as the face reads them: cut into
/// reads of at most gpsd's read size, each read's requests parsed, each `?WATCH` applied
/// to the client's watch. A read never yields more answers than it has bytes.
func fuzzGPSDRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var watch = GPSDWatch()
    for start in stride(from: 0, to: bytes.count, by: GPSDRequestReader.readSize) {
        let read = bytes[start..<min(start + GPSDRequestReader.readSize, bytes.count)]
        let results = GPSDRequestReader.requests(in: read)
        precondition(results.count <= read.count, "\(results.count) requests in \(read.count) bytes")
        for case .success(.watch(let members?)) in results {
            watch = (try? watch.applying(members)) ?? watch
        }
    }
    _ = watch.wantsNMEA
    return 0
}
