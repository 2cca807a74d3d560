/// Where the Swift runtime keeps an object's reference counts. They start in the object's
/// header; the first weak reference ever formed to it moves them to a side table for the
/// object's life, and from then on every retain and release of it is a call through the
/// runtime's slow path (a load of the side table's address, then its count) instead of one
/// atomic add on the header. The hub and the sessions are retained on every fix and every
/// delivery, so nothing may hold them weakly.
enum ReferenceCounts {
    /// Whether `object`'s counts are still in its header: the header's second word (the
    /// first is the type's metadata) has bit 62 clear, the runtime's `SideTableMark`
    /// (RefCount.h, 64-bit layout: a side table's address in bits 0–61, the mark in 62 and
    /// `UseSlowRC` in 63).
    static func areInline(_ object: AnyObject) -> Bool {
        let header = Unmanaged.passUnretained(object).toOpaque()
        let bits = header.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt64.self)
        return bits & (1 << 62) == 0
    }
}
