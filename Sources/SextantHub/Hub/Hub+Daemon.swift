import NIOCore

/// What the daemon (SextantServer) asks of the hub to start it, besides the host API the
/// faces have (Hub+Host.swift) and the sources' inputs (`ingest`, `setSourceState`,
/// `updateSourceStates`).
extension Hub {
    /// Wakes the loop between the slices of work split across turns (``LoopYield``);
    /// until it is in place, or if it cannot be, those slices pause on timers.
    @_spi(Daemon) public func installWakeSocket() -> EventLoopFuture<Void> { loopYield.installWakeSocket() }
}
