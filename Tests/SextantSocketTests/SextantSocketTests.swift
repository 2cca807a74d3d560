import Foundation
import SextantSocket
import Testing

@Suite("Unix socket plumbing")
struct SextantSocketTests {
    @Test("A path too long for sun_path is refused with an error naming the path")
    func pathTooLong() throws {
        let long = "/tmp/" + String(repeating: "d", count: 120) + "/control.sock"
        #expect(throws: UnixSocketPathError(path: long)) { try UnixSocketAddress(path: long) }
        let error = UnixSocketPathError(path: long)
        #expect(error.description.contains(long))
        #expect(error.description.contains("107"))
        // The longest path that fits, and one byte more.
        let fits = "/" + String(repeating: "a", count: UnixSocketAddress.maxPathLength - 1)
        #expect((try? UnixSocketAddress(path: fits)) != nil)
        #expect((try? UnixSocketAddress(path: fits + "a")) == nil)
        #expect((try? UnixSocketAddress(path: "")) == nil)
    }

    @Test("A descriptor closed by its owner is not closed again when the owner goes (issue 9 point 16)")
    func closedExactlyOnce() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[1]) }
        let number = pipeEnds[0]
        var owner: OwnedDescriptor? = OwnedDescriptor(adopting: number)
        owner?.close()
        #expect(owner?.isOpen == false)
        #expect(owner?.raw == -1)
        // Other tests run in this process and open files too, so the number may go to one
        // of theirs; a descriptor of ours that takes it must survive the owner's end.
        var fresh: [Int32] = [0, 0]
        #expect(pipe(&fresh) == 0)
        owner = nil
        #expect(fcntl(fresh[0], F_GETFD) >= 0, "the owner's end closed descriptor \(fresh[0]) a second time")
        close(fresh[0])
        close(fresh[1])
    }

    @Test("release() hands the descriptor over: the owner no longer closes it")
    func release() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        var owner: OwnedDescriptor? = OwnedDescriptor(adopting: pipeEnds[0])
        let handedOver = owner!.release()
        owner = nil
        #expect(fcntl(handedOver, F_GETFD) >= 0)
        close(pipeEnds[0])
        close(pipeEnds[1])
    }
}
