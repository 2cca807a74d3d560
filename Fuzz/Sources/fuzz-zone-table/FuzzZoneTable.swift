import SextantCore

/// A time-zone table (`sextantd --time-zone-table FILE`, docs/timezone.md): its checksum made
/// right first, so that the mutations reach the structure's checks (`ZoneTableCheck`,
/// `ZoneLineCheck`) rather than stop at the CRC; a table they let through must answer a
/// lookup anywhere without a trap.
func fuzzZoneTable(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let header = 40, checksumAt = 28
    if bytes.count >= header {
        let crc = CRC32.checksum(bytes[header...])
        for i in 0..<4 { bytes[checksumAt + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    }
    guard let table = try? ZoneTable(bytes: bytes) else { return 0 }
    var latitude = -90.0
    while latitude <= 90 {
        var longitude = -180.0
        while longitude <= 180 {
            _ = table.zone(latitude: latitude, longitude: longitude)
            longitude += 7.3
        }
        latitude += 3.1
    }
    // The test regions' borders, where the refined cells and polylines are.
    for (lat, lon) in [(38.88, -7.05), (38.87, -7.01), (41.29, -86.62), (36.72, -110.25), (37.7, 71.0)] {
        for step in 0..<50 {
            let d = Double(step) * 0.0007
            _ = table.zone(latitude: lat + d, longitude: lon - d)
        }
    }
    return 0
}
