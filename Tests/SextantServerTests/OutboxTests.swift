import NIOCore
import Testing

@testable import SextantHub
@testable import SextantServer

@Suite("Per-client bounded queue")
struct OutboxTests {
    private func bytes(_ s: String) -> ByteBuffer { ByteBuffer(string: s) }

    @Test("A full sensor queue drops its oldest sensor event, never an essential one")
    func dropsOldestSensor() {
        var outbox = Outbox(sensorLimit: 3, totalLimit: 10)
        #expect(outbox.push(bytes("e1"), kind: .essential) == .queued)
        for i in 1...3 { #expect(outbox.push(bytes("s\(i)"), kind: .sensor) == .queued) }
        #expect(outbox.push(bytes("s4"), kind: .location) == .droppedOldest)
        var order: [String] = []
        while let entry = outbox.popFirst() { order.append(String(buffer: entry.bytes)) }
        #expect(order == ["e1", "s2", "s3", "s4"])
        #expect(outbox.dropped == 1)
    }

    @Test("Past the total limit the client is too far behind: overflow")
    func overflow() {
        var outbox = Outbox(sensorLimit: 2, totalLimit: 3)
        for i in 1...3 { #expect(outbox.push(bytes("e\(i)"), kind: .essential) == .queued) }
        #expect(outbox.push(bytes("e4"), kind: .essential) == .overflow)
    }

    @Test("L9: queued locations are discarded when delivery stops; other events stay in order")
    func discardLocations() {
        var outbox = Outbox()
        _ = outbox.push(bytes("l1"), kind: .location)
        _ = outbox.push(bytes("o1"), kind: .sensor)
        _ = outbox.push(bytes("l2"), kind: .location)
        _ = outbox.push(bytes("a1"), kind: .essential)
        #expect(outbox.discardLocations() == 2)
        #expect(outbox.sensorCount == 1)
        var order: [String] = []
        while let entry = outbox.popFirst() { order.append(String(buffer: entry.bytes)) }
        #expect(order == ["o1", "a1"])
    }

    @Test("R11, L9: a queued region event is never dropped for a slow client, and is discarded with the locations when delivery stops")
    func regionEventsKeptThenDiscarded() {
        var outbox = Outbox(sensorLimit: 2, totalLimit: 10)
        _ = outbox.push(bytes("r1"), kind: .locationDecision)
        for i in 1...3 { _ = outbox.push(bytes("l\(i)"), kind: .location) }
        #expect(outbox.sensorCount == 2 && outbox.dropped == 1)
        #expect(outbox.discardLocations() == 3)
        #expect(outbox.sensorCount == 0 && outbox.isEmpty)
        _ = outbox.push(bytes("r2"), kind: .locationDecision)
        _ = outbox.push(bytes("a1"), kind: .essential)
        var order: [String] = []
        while let entry = outbox.popFirst() { order.append(String(buffer: entry.bytes)) }
        #expect(order == ["r2", "a1"])
        #expect(outbox.sensorCount == 0)
    }
}
