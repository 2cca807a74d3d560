import SextantCore
import SextantProtocol

/// The device's clock moved by the control side (`time.*`, RULES C1–C10).
extension Hub {
    /// The device's clock as `time.get` gives it.
    var deviceClockState: DeviceClockState {
        let clock = deviceTime.clock
        let now = self.now
        return DeviceClockState(
            wall: now.wall, offsetSeconds: Double(clock.wallOffset) / 1e9, monotonicSeconds: Double(now.monotonic) / 1e9,
            monotonicOffsetSeconds: Double(clock.monotonicOffset) / 1e9)
    }

    /// Moves the device's clock: the timers due by the new time fire at once (C6), then the
    /// watchers hear `clockChanged`. A refusal leaves the clock as it was and is -32602
    /// naming `param`, the one that asked for the move (C8).
    func moveDeviceClock(
        by param: String, _ change: (inout DeviceClock, EngineTime) throws(DeviceClockRefusal) -> Void
    ) throws(RPCError) -> DeviceClockState {
        eventLoop.preconditionInEventLoop()
        let before = deviceTime.clock
        do {
            try deviceTime.move(change)
        } catch {
            throw RPCError(.invalidParams, "\"\(param)\": \(error.description)")
        }
        let state = deviceClockState
        guard deviceTime.clock != before else { return state }
        logger.info("device clock moved", metadata: ["wall": "\(state.wall)", "offset": "\(state.offsetSeconds)"])
        broadcastToWatchers(Event.clockChanged, state.json)
        return state
    }
}
