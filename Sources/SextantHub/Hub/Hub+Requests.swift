import NIOCore
import SextantProtocol

/// Requests from the peers of the method tables (app.sock, control.sock), line by line.
extension Hub {
    func received(_ frame: InboundFrame, on connection: any RPCPeer) {
        eventLoop.preconditionInEventLoop()
        guard !connection.isClosed else { return }
        if connection.heldFrames != nil {
            connection.heldFrames!.append(frame)
            return
        }
        switch frame {
        case .tooLong:
            logger.notice("line over 64 KiB: closing the connection", metadata: ["client": "\(connection.label)"])
            connection.sendAndClose(.errorResponse(id: .null, error: RPCError(.invalidRequest, "line longer than 65536 bytes")))
        case .line(let buffer):
            if let id = connection.session, let session = sessions[id] { services.fixes.settle(session) }  // the fixes it is owed first
            let value: JSONValue
            do {
                value = try buffer.readableBytesView.withContiguousStorageIfAvailable { bytes throws(JSONParseError) in
                    try JSONValue.parse(bytes)
                } ?? JSONValue.parse(bytes: buffer.readableBytesView)
            } catch {
                connection.respond(.null, .failure(RPCError(.parseError, "invalid JSON: \(error)")))
                return
            }
            switch RPCMessage.decode(value) {
            case .failure(let failure):
                connection.respond(failure.id, .failure(failure.error))
            case .success(.request(let id, let method, let params)):
                dispatch(method: method, params: params, id: id, on: connection)
            case .success(.notification(let method, let params)):
                // Notifications get no answer, even an error (JSON-RPC 2.0 §4.1).
                dispatch(method: method, params: params, id: nil, on: connection)
            case .success(.response), .success(.errorResponse):
                connection.respond(.null, .failure(RPCError(.invalidRequest, "the daemon takes requests, not responses")))
            }
        }
    }

    private func dispatch(method: String, params: JSONValue?, id: JSONValue?, on connection: any RPCPeer) {
        let table = connection.socket == .app ? appMethods : controlMethods
        let reply = table.dispatch(method, params: params, id: id, on: connection, hub: self)
        if connection.socket == .control {
            record(method, params: params, reply: reply)
        } else if let session = connection.session.flatMap({ sessions[$0] }) {
            sessionChanged(session)  // what it streams, its interface: the watchers hear of a change
        }
        guard let id else { return }
        switch reply {
        case .result(let value): connection.respond(id, .success(value))
        case .error(let error): connection.respond(id, .failure(error))
        case .later(let future):
            future.assumeIsolated().whenComplete { result in
                connection.respond(id, result.mapError { ($0 as? RPCError) ?? RPCError.internalError("\($0)") })
            }
        case .deferred: break
        }
    }

    /// Reads nothing more of `connection` until `answer` is written: a client may send its
    /// next requests right behind a `hello` whose answer waits for the store, and they must
    /// find the session open. Lines already read wait in order (no more than one read's
    /// worth: reading is paused), and are handled after the answer.
    func holdRequests(of connection: any RPCPeer, until answer: EventLoopFuture<JSONValue>) {
        connection.heldFrames = []
        connection.setReading(false)
        answer.assumeIsolated().whenComplete { [self] _ in
            // Queued behind the answer, which the dispatcher writes on this same completion.
            eventLoop.assumeIsolated().execute { [self] in
                let held = connection.heldFrames ?? []
                connection.heldFrames = nil
                for frame in held { received(frame, on: connection) }
                guard !connection.isClosed, connection.heldFrames == nil else { return }
                connection.setReading(true)
            }
        }
    }
}
