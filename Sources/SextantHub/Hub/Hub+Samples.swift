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
            location.fixComing(from: source)
            // The profile (N1–N5) and the flag (N7) before the rules: the decided fix is
            // the reported one; the recording above keeps the truth.
            let fix = gnss.report(truth, from: source)
            services.fixSampled(truth, from: source)
            guard let fix else {
                if gnss.fixLost(from: source) { locationUnavailable(Self.noFixReason, from: source) }
                return
            }
            publishLocation(fix, truth: truth)
        case .gps(let signal):
            gpsSignal(signal, from: source)
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

    /// A new fix: each streaming session gets what its authorization and stream allow
    /// (RULES L1, L8, L10, L11); `location.once` waiters get one; watchers see the fix
    /// before the rules, with the `truth` beside it when a GNSS profile moved it (N6).
    func publishLocation(_ fix: LocationFix, truth: LocationFix) {
        // The previous fix reaches every session before anything of this one, but in a
        // replay's batch (``LocationFanOut``), where each session takes the turn's fixes at once.
        if !locationFanOut.batching { settleLocationFanOut() }
        let lossEnds = location.loss != nil
        location.fixArrived(fix)
        if lossEnds { services.conditionsChanged() }
        if watchers.admitLocations { broadcastToWatchers(Event.location, fix.watchedJSON(truth: truth), kind: .sensor) }
        // A full fix is the same for every app: encoded once for all of them; it reaches
        // a bounded number of sessions per turn of the loop.
        fanOutLocation(fix, SharedEvent(LocationEvent(fix, .full)))
        services.fixDecided(fix)
    }

    /// What one session gets of a fix, if anything. A session served reduced whose grid is
    /// still being written gets nothing now: it gets the newest fix once the grid is on disk
    /// (Hub+Store `committedFudger`).
    func deliverLocation(_ fix: LocationFix, to session: AppSession, fullFix: SharedEvent? = nil) {
        // A platform's provider answers its `location.once`s itself (AN35).
        guard session.stream != nil || (!session.onceWaiters.isEmpty && services.fanOutAnswersOnce) else { return }
        guard let granted = decidedAccuracy(of: session) else { return }
        let fudger: LocationFudger
        if granted == .reduced || session.stream?.served(granted) == .reduced {
            guard let committed = committedFudger(for: session.app) else { return }
            fudger = committed
        } else {
            // Full accuracy: the grid is not used (nor looked up: a hash of the app's name
            // for every fix to every app).
            fudger = LocationFudger(offsetEast: 0, offsetNorth: 0)
        }
        if !session.onceWaiters.isEmpty {
            let served: (LocationFix, LocationAccuracy) = granted == .reduced ? (fudger.coarsen(fix).fix, .reduced) : (fix, .full)
            for waiter in session.onceWaiters.removeAll() {
                waiter.timeout.cancel()
                waiter.peer.respond(waiter.id, .success(served.0.json(accuracy: served.1)))
            }
        }
        // The stream changed in place, not copied out and back.
        if let (out, accuracy) = session.stream?.offer(fix, authorized: granted, fudger: fudger) {
            if accuracy == .full {
                publish(to: session, fullFix ?? SharedEvent(LocationEvent(fix, .full)))
            } else {
                publish(to: session, LocationEvent(out, accuracy))
            }
        }
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

    /// The GPS source's own state: a loss is told once to every streaming app.
    func gpsSignal(_ signal: GPSSignal, from source: SourceName) {
        switch signal {
        case .lost, .noFix:
            if signal == .lost {
                locationUnavailable(source == .gpsd ? "the GPS source (gpsd) was lost" : "the GPS source was lost (\(source.rawValue))", from: source)
            }
        case .ok:
            break
        }
    }

    /// N4a: what apps hear when a GNSS profile's receiver loses its fix.
    static let noFixReason = "no GNSS fix: the receiver sees no satellite (a tunnel or an outage)"

    /// No fix comes until the next one, for `reason`: told once to every streaming app, and
    /// to watchers (who see it in `status`'s `locationUnavailable` too) when no app streams.
    func locationUnavailable(_ reason: String, from source: SourceName) {
        guard location.loss == nil else { return }
        location.lost(reason)
        services.conditionsChanged()
        var told = false
        for session in sessions.ordered where services.locationProvider.streams(session) {
            told = true
            tellLocationUnavailable(session, reason)
        }
        if !told { broadcastToWatchers(Event.locationUnavailable, ["reason": .string(reason)]) }
    }

    func tellLocationUnavailable(_ session: AppSession, _ reason: String) {
        publish(to: session, LocationUnavailableEvent(reason: reason))
    }
}
