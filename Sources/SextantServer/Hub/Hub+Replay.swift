import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// Replay, as the control methods drive it (recording: `Hub.startRecording`).
extension Hub {
    /// Loads the trace at `path`, opened with `access`'s rights (a control client's own:
    /// `PeerFileAccess`), and plays it, at once or at the first location request (T1).
    func startReplay(
        path: String, speed: ReplaySpeed, loop: Bool, until: Int64? = nil, startOnRequest: Bool = false, access: PeerFileAccess = .daemons
    ) -> EventLoopFuture<Void> {
        let options = TraceLoadOptions(gpxSpeed: configuration.gpxSpeed, gpxInterval: configuration.gpxInterval, gnssProvider: configuration.gnssProvider)
        // A JSONL trace is checked whole here, off the loop, and then read as it plays.
        return fileThread.runIfActive(eventLoop: eventLoop) { () -> Result<Result<any ReplayableTrace, TraceLoadError>, PeerFileRefusal> in
            access.perform(on: path, writing: false) { (opened: String) -> Result<any ReplayableTrace, TraceLoadError> in
                do throws(TraceLoadError) { return .success(try TraceLoader.openForReplay(path: opened, options: options)) } catch { return .failure(error) }
            }
        }.flatMapThrowing { [self] opened in
            let loaded: Result<any ReplayableTrace, TraceLoadError>
            switch opened {
            case .success(let result): loaded = result
            case .failure(let refusal): loaded = .failure(.unreadable(path: path, reason: refusal.description))
            }
            switch loaded {
            case .success(let trace):
                replay.start(trace: trace, path: path, speed: speed, loop: loop, until: until, startOnRequest: startOnRequest)
            case .failure(.unreadable(let path, let reason)):
                logger.warning("replay: cannot read the trace", metadata: ["path": "\(path)", "reason": "\(reason)"])
                throw RPCError(.sourceUnavailable, "cannot read \(path): \(reason)", data: ["path": .string(path)])
            case .failure(.invalid(let error)):
                logger.warning("replay: bad trace", metadata: ["path": "\(error.path)", "line": "\(error.line)", "reason": "\(error.reason)"])
                throw RPCError(
                    .invalidTrace, "\(error.path):\(error.line): \(error.reason)",
                    data: ["path": .string(error.path), "line": .int(Int64(error.line)), "reason": .string(error.reason)])
            }
        }
    }

}
