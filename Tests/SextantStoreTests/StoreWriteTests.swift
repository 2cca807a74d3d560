import Foundation
import SextantCore
import SextantProtocol
import SextantStore
import SextantTestSupport
import Testing

@Suite("SQLite store writes")
struct StoreWriteTests {
    /// Removed with the suite's instance at the end of the test.
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("writes") }

    /// The store's directory: a directory the store makes itself, in the test's own.
    private func directory() -> String {
        scratch.file("store")
    }

    private func entry(_ status: AuthorizationStatus) -> StoredPermission {
        StoredPermission(status: status, accuracy: .full, updated: Timestamp(nanoseconds: 1))
    }

    @Test("A batch is one transaction: when one of its writes fails, none of it is stored", .requires(SQLiteShell.requirement))
    func batchIsAtomic() throws {
        let dir = directory()
        let store = try SextantStore(directory: dir)
        store.close()
        // A real SQLite failure in the middle of the batch: a trigger refuses one row.
        try SQLiteShell.run(
            dir + "/" + SextantStore.fileName,
            "CREATE TRIGGER refuse BEFORE INSERT ON permission WHEN NEW.app = 'com.refused' BEGIN SELECT RAISE(ABORT, 'refused by test'); END")

        let reopened = try SextantStore(directory: dir)
        let error = #expect(throws: StoreError.self) {
            try reopened.write([.permission(app: "com.first", entry(.denied)), .servicesEnabled(false), .permission(app: "com.refused", entry(.denied))])
        }
        #expect(error?.reason.contains("refused by test") == true)
        let after = try reopened.load()
        #expect(after.permissions.isEmpty && after.servicesEnabled)
    }

    @Test("asyncWrite commits batches in the order they were queued")
    func asyncWritesKeepTheirOrder() async throws {
        let dir = directory()
        let store = try SextantStore(directory: dir)
        let statuses: [AuthorizationStatus] = [.denied, .authorizedAlways, .restricted, .authorizedWhenInUse]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<200 {
                let status = statuses[round % statuses.count]
                // Queued here, in this order; completions may run later.
                let queued = AsyncWrite(store: store, changes: [.permission(app: "com.order", entry(status)), .servicesEnabled(round % 2 == 0)])
                group.addTask { try await queued.result() }
            }
            try await group.waitForAll()
        }
        let final = try store.load()
        #expect(final.permissions["com.order"]?.status == statuses[199 % statuses.count])
        #expect(final.servicesEnabled == false)
    }
}

/// Starts an asyncWrite at once and lets a task wait for its completion.
private final class AsyncWrite: Sendable {
    private let continuation: AsyncThrowingStream<Void, any Error>.Continuation
    private let stream: AsyncThrowingStream<Void, any Error>

    init(store: SextantStore, changes: [StoreChange]) {
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Void.self)
        store.asyncWrite(changes) { [continuation] result in
            switch result {
            case .success: continuation.finish()
            case .failure(let error): continuation.finish(throwing: error)
            }
        }
    }

    func result() async throws {
        for try await _ in stream {}
    }
}
