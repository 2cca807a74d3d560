import NIOCore
import SextantCore
import SextantProtocol
import SextantStore

/// Where the hub writes to the permission store.
extension Hub {
    func persist(_ writes: [@Sendable (SextantStore) throws -> Void]) -> EventLoopFuture<Void> {
        guard !writes.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        let store = self.store
        let logger = self.logger
        return storeThread.runIfActive(eventLoop: eventLoop) {
            for write in writes { try write(store) }
        }.flatMapErrorThrowing { error in
            logger.error("cannot write the permission store", metadata: ["path": "\(store.path)", "error": "\(error)"])
            throw RPCError.internalError("the permission store \(store.path) could not be written: \(error)")
        }
    }

    /// The grid shift of an app, made (and stored) on first use.
    func fudger(for app: String) -> LocationFudger {
        if let existing = fudgers[app] { return existing }
        var generator = SystemRandomNumberGenerator()
        let fresh = LocationFudger.random(using: &generator)
        fudgers[app] = fresh
        persist([{ try $0.saveFudger(app: app, fresh) }]).whenFailure { _ in }  // logged by persist
        return fresh
    }
}
