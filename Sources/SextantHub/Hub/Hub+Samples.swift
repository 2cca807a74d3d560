import SextantCore
import SextantProtocol

/// Samples from every source (replay, manual, gpsd, IIO) come in here, one at a time, in order.
extension Hub {
    /// Whose clock stamped a sample of `source`, for the recorder: none for values set by
    /// hand (the wall clock, which may be set), one per run for a replay.
    func recordingClock(of source: SourceName) -> SampleClock? {
        switch source {
        case .manual: nil
        case .replay: SampleClock(source: source, run: replay.run)
        case .gpsd, .iio: SampleClock(source: source, run: 0)
        }
    }

    @_spi(Sources) public func ingest(_ sample: Sample, from source: SourceName) {
        eventLoop.preconditionInEventLoop()
        recorder?.record(sample, arrival: clock.monotonicNanoseconds(), clock: recordingClock(of: source))
        switch sample.value {
        case .location(let truth):
            services.fixes.coming(from: source)
            // The profile (N1–N5) and the flag (N7) before the rules: the decided fix is
            // the reported one; the recording above keeps the truth.
            let fix = gnss.report(truth, from: source)
            services.fixSampled(truth, from: source)
            guard let fix else {
                if gnss.fixLost(from: source) { services.fixes.receiverLost() }
                return
            }
            // The sessions first, then the services that decide from fixes.
            services.fixes.decided(fix, truth: truth)
            services.fixDecided(fix)
        case .gps(let signal):
            services.fixes.gpsSignal(signal, from: source)
        case .reading(let reading):
            sensorReading(reading, at: sample.time, from: source)
        case .record(let record):
            services.route(record, at: sample.time, from: source)
        }
    }

    /// A sensor reading of any kind: heard if its kind's arbiter lets its source through
    /// (hand > replay > live, ``SensorArbiter``), then handed to the engine registered
    /// for its kind (``SensorHandlers``). A replay started after a value was held by hand
    /// ends the hold at its first reading of the kind, as the later instruction; a value
    /// held while a replay plays wins until it is released (O4a).
    func sensorReading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        if source == .replay, let held = manualSensors.heldBeforeReplay(sharingTopicWith: reading.kind) { releaseByHand(held) }
        guard services.consumes(reading.kind), motion.admits(reading.kind, source.sensorRank, at: clock.monotonicNanoseconds()) else { return }
        services.route(reading, at: time, from: source)
    }

    /// Holds `reading` by hand (O4a): the manual source repeats it, and the arbiters of
    /// every kind heard on its topic (a heading held silences the replay's magnetometer too)
    /// hear no other source until `releaseByHand`.
    func holdByHand(_ reading: SensorReading) {
        for kind in ManualSensors.sharingTopic(with: reading.kind) { motion.hold(kind) }
        manualSensors.hold(reading)
    }

    /// D7: turns the device by hand to hold `target` on the accelerometer, from the gravity
    /// the hand holds, else from the exact gravity of the orientation the judge decided, at
    /// the hand's rate; the gyroscope is held for the turn. With nowhere to turn from (the
    /// first reading heard) or nothing to turn, `target` is held at once.
    func turnByHand(to target: Acceleration) {
        let start = manualSensors.held(SensorKind.accelerometer.id).flatMap(Acceleration.init)
            ?? ManualGravity.vector(for: motion.judge.orientation)
        let tick = Double(ManualSensors.interval.nanoseconds) / 1e9
        guard let start, let turn = TurnByHand(from: start.vector, to: target.vector, tick: tick) else {
            holdByHand(target.reading)
            return
        }
        for kind in ManualSensors.sharingTopic(with: SensorKind.accelerometer.id) { motion.hold(kind) }
        for kind in ManualSensors.sharingTopic(with: SensorKind.gyroscope.id) { motion.hold(kind) }
        manualSensors.turnEnded = { [unowned self] in releaseByHand($0) }
        manualSensors.turn(turn, to: target.reading)
    }

    /// Lets go of the value of `kind` held by hand: once nothing on its topic is held, the
    /// replay's or the hardware's next reading is heard at once.
    func releaseByHand(_ kind: SensorKind.ID) {
        manualSensors.release(kind)
        guard !manualSensors.holdsTopic(of: kind) else { return }
        services.releasedByHand(kind)
        for sharing in ManualSensors.sharingTopic(with: kind) { motion.release(sharing) }
    }

    /// `authorization.locationAccuracy(for:)` for `session`, asked again only when the
    /// engine changed since (its answer is a function of the engine's state alone: no
    /// clock, L5's expiry is a change): the fan-out's every delivery reads it, and the
    /// engine's look-up (its session record, the app's permission by name) is a good
    /// part of a delivery's cost.
    func decidedAccuracy(of session: AppSession) -> LocationAccuracy? {
        if session.decidedAt != authorizationGeneration {
            session.decidedAccuracy = authorization.locationAccuracy(for: session.id)
            session.decidedAt = authorizationGeneration
        }
        return session.decidedAccuracy
    }
}
