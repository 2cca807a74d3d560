import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// Replay, as the control methods drive it (recording: `Hub.startRecording`).
extension Hub {
    /// Loads the trace at `path`, and the scenario at `scenario` if given, opened with
    /// `access`'s rights (a control client's own: `PeerFileAccess`), checks every control
    /// action against the control method table, and plays them, at once or at the first
    /// client's request for fixes (T1).
    @_spi(Daemon) public func startReplay(
        path: String, scenario: String? = nil, speed: ReplaySpeed, loop: Bool, until: Int64? = nil, startOnRequest: Bool = false,
        gnssProvider: GnssProvider? = nil, access: PeerFileAccess = .daemons
    ) -> EventLoopFuture<Void> {
        let options = TraceLoadOptions(
            gpxSpeed: configuration.gpxSpeed, gpxInterval: configuration.gpxInterval, gnssProvider: gnssProvider ?? configuration.gnssProvider)
        // A JSONL trace is checked whole here, off the loop, and then read as it plays; the
        // hub is called on its loop only, so what follows the load runs isolated to it.
        return fileThread.runIfActive(eventLoop: eventLoop) { () -> Result<LoadedReplay, TraceLoadError> in
            Self.load(path: path, scenario: scenario, options: options, access: access)
        }.assumeIsolated().flatMapThrowing { [self] loaded in
            switch loaded {
            case .success(let replay):
                for control in replay.controls { try ControlActions.check(control, against: controlMethods) }
                self.replay.start(trace: replay.trace, controls: replay.controls, path: path, speed: speed, loop: loop, until: until, startOnRequest: startOnRequest)
            case .failure(.unreadable(let path, let reason)):
                logger.warning("replay: cannot read the trace", metadata: ["path": "\(path)", "reason": "\(reason)"])
                throw RPCError(.sourceUnavailable, "cannot read \(path): \(reason)", data: ["path": .string(path)])
            case .failure(.invalid(let error)):
                logger.warning("replay: bad trace", metadata: ["path": "\(error.path)", "line": "\(error.line)", "reason": "\(error.reason)"])
                throw RPCError(
                    .invalidTrace, "\(error.path):\(error.line): \(error.reason)",
                    data: ["path": .string(error.path), "line": .int(Int64(error.line)), "reason": .string(error.reason)])
            }
        }.nonisolated()
    }

    /// A trace and its control actions (its own and a scenario's), merged.
    struct LoadedReplay: Sendable {
        let trace: any ReplayableTrace
        let controls: [TraceControl]
    }

    /// Runs on the file thread: opens both files with `access`'s rights.
    private static func load(path: String, scenario: String?, options: TraceLoadOptions, access: PeerFileAccess) -> Result<LoadedReplay, TraceLoadError> {
        let opened = access.perform(on: path, writing: false) { (opened: String) -> Result<any ReplayableTrace, TraceLoadError> in
            do throws(TraceLoadError) { return .success(try TraceLoader.openForReplay(path: opened, options: options)) } catch { return .failure(error) }
        }
        let trace: any ReplayableTrace
        switch opened {
        case .failure(let refusal): return .failure(.unreadable(path: path, reason: refusal.description))
        case .success(.failure(let error)): return .failure(error)
        case .success(.success(let loaded)): trace = loaded
        }
        guard let scenario else { return .success(LoadedReplay(trace: trace, controls: trace.controls)) }
        let start = trace.start
        let read = access.perform(on: scenario, writing: false) { (opened: String) -> Result<[TraceControl], TraceLoadError> in
            do throws(TraceLoadError) { return .success(try ScenarioFile.read(path: opened, start: start)) } catch { return .failure(error) }
        }
        switch read {
        case .failure(let refusal): return .failure(.unreadable(path: scenario, reason: refusal.description))
        case .success(.failure(let error)): return .failure(Self.naming(scenario, in: error))
        case .success(.success(var actions)):
            for index in actions.indices { actions[index].path = scenario }
            do throws(TraceError) {
                return .success(LoadedReplay(trace: trace, controls: try TraceControl.merged(trace.controls, scenario: actions, in: trace)))
            } catch {
                return .failure(.invalid(error))
            }
        }
    }

    /// The scenario's errors name it as the client gave it (the real path of a file every
    /// user may read may differ).
    private static func naming(_ path: String, in error: TraceLoadError) -> TraceLoadError {
        switch error {
        case .unreadable(_, let reason): return .unreadable(path: path, reason: reason)
        case .invalid(var error):
            error.path = path
            return .invalid(error)
        }
    }
}
