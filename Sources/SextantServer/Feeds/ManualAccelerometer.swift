import NIOCore
import SextantCore
import SextantProtocol

/// The manual source's accelerometer: a reading set by hand (`device.set` with
/// `acceleration` or `orientation`, `sextantctl rotate` and `accel`) holds like a sensor
/// at rest, sampled at the source's rate, until it is changed or released (RULES O4a).
///
/// It is a source like any other: each tick is a sample stamped with the wall clock, and
/// the orientation judge decides from those samples, never from the value directly. So
/// `faceUp` set by hand appears only after O3's 500 ms, exactly as from a real sensor.
final class ManualAccelerometer {
    /// RULES O4a: 50 Hz.
    static let interval = TimeAmount.milliseconds(20)

    private let eventLoop: EventLoop
    private let clock: SextantClock
    private let emit: (Sample) -> Void
    private var tick: Scheduled<Void>?
    private(set) var held: Acceleration?

    init(eventLoop: EventLoop, clock: SextantClock, emit: @escaping (Sample) -> Void) {
        self.eventLoop = eventLoop
        self.clock = clock
        self.emit = emit
    }

    /// Holds `reading` from now on: one sample at once, then one every 20 ms.
    func hold(_ reading: Acceleration) {
        eventLoop.preconditionInEventLoop()
        held = reading
        tick?.cancel()
        emit(Sample(time: clock.wallTime(), value: .acceleration(reading)))
        schedule(after: eventLoop.now)
    }

    /// Ticks on a fixed grid from the first one, so that a late tick does not push the rest.
    private func schedule(after previous: NIODeadline) {
        let due = previous + Self.interval
        tick = eventLoop.assumeIsolated().scheduleTask(deadline: due) { [weak self] in
            guard let self, let held = self.held else { return }
            self.emit(Sample(time: clock.wallTime(), value: .acceleration(held)))
            self.schedule(after: due)
        }
    }

    /// Stops holding: the accelerometer belongs to the live sensor or the replay again.
    func release() {
        eventLoop.preconditionInEventLoop()
        held = nil
        tick?.cancel()
        tick = nil
    }

    var isHolding: Bool { held != nil }

    /// The sensor kind of the value held, if one is.
    var heldKind: SensorKind.ID? { held == nil ? nil : SensorKind.accelerometer.id }
}
