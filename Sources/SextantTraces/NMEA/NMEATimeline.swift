import SextantCore
import SextantProtocol

/// Puts the epochs of an NMEA log on a time line and turns them into trace samples.
///
/// **Dates.** Most sentences carry only a time of day. The date comes from the log's RMC
/// (with a fix) and ZDA sentences; a log with neither takes the `# Date: YYYY-MM-DD`
/// comment gpsd's logs carry, else `fallbackDate`. Every epoch gets the date that puts it
/// nearest to the instant before it (the previous epoch, or a date sentence): time of
/// day going back by most of a day means midnight has passed, a step back of a few
/// seconds (a ZDA sent ahead of its cycle) stays on the same day. Epochs before the
/// log's first date are dated backwards from it the same way.
///
/// **Start.** The trace starts at the first fix. A receiver that had no fix when the
/// log began is told by one `gps noFix` sample at offset 0; its times before the first
/// fix are not used (MTK and Royaltek receivers report made-up times until then).
///
/// **Offsets never decrease.** A fix dated before the previous one, or more than
/// `maximumGap` (a day) after it, means the log was put together from several recordings
/// (gpsd's bt451.log) or the receiver's clock jumped (humminbird-M37.log): the later part
/// is moved to follow the earlier one `segmentGap` (1 s) after it, keeping its own pace. A
/// no-fix report is never moved back in time; it is held at the last sample's offset
/// instead.
///
/// **Headings.** HDT, HDM and HDG give the cycle a heading (`NMEAHeading`), played as a
/// `compass` sample at its fix's offset, after the fix.
///
/// **Satellites.** A cycle with a fix whose GSV groups ended gives a `sky` sample at its
/// fix's offset, after the fix: the satellites listed, used where its GSA lists them
/// (`NMEAEpochSky`). A cycle without a fix has no time on the trace's line: its sky is
/// not played, as its heading is not.
///
/// **Fixes.** Speed comes in knots (× 1852/3600 for m/s). The horizontal accuracy (a
/// 68 % radius, as `hAcc` means everywhere in Sextant) is √(σlat² + σlon²) from GST
/// when the receiver sends it, else HDOP × 5 m, else Sextant's default 5 m; the
/// vertical one is GST's σalt, else VDOP × 5 m (`TraceConventions`).
struct NMEATimeline {
    /// The date of a log that gives none in its sentences or comments.
    static let fallbackDate = TraceConventions.fallbackDate
    /// How far after the previous fix a recording appended to another one starts.
    static let segmentGap: Int64 = 1_000_000_000
    /// The longest a replay waits between two fixes: a longer step forward also starts
    /// another recording (a log whose dates jump by months is not waited through).
    static let maximumGap: Int64 = 86_400_000_000_000

    static let day: Int64 = 86_400_000_000_000

    /// The samples of the log, and the instant offset 0 stands for.
    static func samples(from events: [NMEAEvent], commentDate: NMEADate?) -> (start: Timestamp, samples: [TraceSample]) {
        let instants = resolveInstants(events, commentDate: commentDate)
        let epochs: [(epoch: NMEAEpoch, instant: Int64?)] = events.indices.compactMap { i in
            if case .epoch(let e) = events[i] { return (e, instants[i]) }
            return nil
        }
        // A fix needs a time to be placed; an untimed one (an old Garmin's GLL before any
        // timed sentence) cannot be.
        guard let firstFix = epochs.firstIndex(where: { $0.epoch.isFix && $0.instant != nil }) else {
            // Never a fix: the trace only says so.
            let start = epochs.lazy.compactMap(\.instant).first ?? (fallbackDate.daysSinceEpoch * day)
            let samples = epochs.isEmpty ? [] : [TraceSample(offset: 0, value: .gps(.noFix))]
            return (Timestamp(nanoseconds: start), samples)
        }
        let start = epochs[firstFix].instant!
        // Offsets stop growing at `Trace.maximumOffset`, or where `start + offset` would
        // overflow (a file made to go forward by a day at every fix, for thousands of fixes).
        let limit = min(Trace.maximumOffset, Int64.max - start)
        var samples: [TraceSample] = []
        if firstFix > 0 { samples.append(TraceSample(offset: 0, value: .gps(.noFix))) }
        var lastOffset: Int64 = 0
        var lastFix: (instant: Int64, offset: Int64)?
        var lastWasLocation = false
        for (epoch, instant) in epochs[firstFix...] {
            if epoch.isFix, let instant {
                var offset: Int64 = 0
                if let lastFix {
                    let step = instant - lastFix.instant
                    let advance = (0...maximumGap).contains(step) ? step : segmentGap
                    offset = max(lastOffset, advance > limit - lastFix.offset ? limit : lastFix.offset + advance)
                }
                lastOffset = offset
                lastFix = (instant, offset)
                lastWasLocation = true
                samples.append(TraceSample(offset: offset, value: .location(fix(epoch, time: Timestamp(nanoseconds: start + offset)))))
                if let heading = heading(epoch) { samples.append(TraceSample(offset: offset, value: .compass(heading))) }
                if let sky = epoch.satellites.sky { samples.append(TraceSample(offset: offset, value: .sky(sky))) }
            } else if !epoch.isFix, let fix = lastFix, lastWasLocation {
                lastWasLocation = false
                // Where the loss falls after the last fix, if it is in step with it.
                let step = instant.map { $0 - fix.instant } ?? 0
                let offset = (0...maximumGap).contains(step) && step <= limit - fix.offset ? fix.offset + step : lastOffset
                lastOffset = max(lastOffset, offset)
                samples.append(TraceSample(offset: lastOffset, value: .gps(.noFix)))
            }
        }
        return (Timestamp(nanoseconds: start), samples)
    }

    /// The instant (ns since 1970) of every timed epoch, by index in `events`.
    static func resolveInstants(_ events: [NMEAEvent], commentDate: NMEADate?) -> [Int64?] {
        var instants = [Int64?](repeating: nil, count: events.count)
        // The first date the log gives, or one made up at the first timed epoch.
        let anchorIndex: Int
        let anchorInstant: Int64
        if let i = events.firstIndex(where: { if case .date = $0 { return true } else { return false } }), case .date(let date, let time) = events[i] {
            anchorIndex = i
            anchorInstant = date.daysSinceEpoch * day + time
        } else if let i = events.firstIndex(where: { if case .epoch(let e) = $0 { return e.time != nil } else { return false } }),
            case .epoch(let e) = events[i]
        {
            anchorIndex = i
            anchorInstant = (commentDate ?? fallbackDate).daysSinceEpoch * day + e.time!
        } else {
            return instants
        }
        // Backwards from the anchor for what comes before it…
        var reference = anchorInstant
        for i in stride(from: anchorIndex - 1, through: 0, by: -1) {
            guard case .epoch(let e) = events[i], let time = e.time else { continue }
            reference = nearest(time, to: reference)
            instants[i] = reference
        }
        // …and forwards from it, each date sentence setting the reference again.
        reference = anchorInstant
        for i in anchorIndex..<events.count {
            switch events[i] {
            case .date(let date, let time):
                reference = date.daysSinceEpoch * day + time
            case .epoch(let e):
                guard let time = e.time else { continue }
                reference = nearest(time, to: reference)
                instants[i] = reference
            }
        }
        return instants
    }

    /// The instant with time of day `time` nearest to `reference` (the day before, the
    /// same day or the day after).
    static func nearest(_ time: NMEATimeOfDay, to reference: Int64) -> Int64 {
        let midnight = floorDivide(reference, day) * day
        return [midnight - day + time, midnight + time, midnight + day + time].min { abs($0 - reference) < abs($1 - reference) }!
    }

    /// The cycle's heading, played as a `compass` sample right after its fix; a heading in
    /// a cycle without a fix has no time on the trace's line and is not played.
    static func heading(_ epoch: NMEAEpoch) -> CompassReading? {
        guard epoch.magneticHeading != nil || epoch.trueHeading != nil else { return nil }
        return CompassReading(magnetic: epoch.magneticHeading, trueHeading: epoch.trueHeading)
    }

    static func fix(_ epoch: NMEAEpoch, time: Timestamp) -> LocationFix {
        let position = epoch.position!
        var hAcc = LocationFix.defaultHorizontalAccuracy
        if let lat = epoch.latitudeError, let lon = epoch.longitudeError, lat >= 0, lon >= 0 {
            hAcc = (lat * lat + lon * lon).squareRoot()
        } else if let fromDOP = TraceConventions.accuracy(dilution: epoch.hdop) {
            hAcc = fromDOP
        }
        var vAcc: Double?
        if let alt = epoch.altitudeError, alt >= 0 {
            vAcc = alt
        } else {
            vAcc = TraceConventions.accuracy(dilution: epoch.vdop)
        }
        var course = epoch.course
        if let c = course { course = c >= 0 && c <= 360 ? c.truncatingRemainder(dividingBy: 360) : nil }
        let speed = epoch.speedKnots.flatMap { $0 >= 0 ? $0 * NMEAUnits.metresPerSecondPerKnot : nil }
        var fix = LocationFix(
            latitude: position.latitude, longitude: position.longitude, altitude: epoch.altitude, horizontalAccuracy: hAcc,
            verticalAccuracy: vAcc, speed: speed, course: course, time: time)
        dropValuesOutOfRange(&fix)
        return fix
    }

    /// A lenient reader keeps the fix and drops a value `LocationFix.problem` refuses (an
    /// altitude of 1e300, an HDOP of 1e20); an accuracy out of range becomes the default.
    static func dropValuesOutOfRange(_ fix: inout LocationFix) {
        // A place out of range makes `problem` refuse every value; the parser never gives
        // one, but the rule stays the validator's.
        let placeIsGood = LocationFix.isAcceptable(latitude: fix.latitude) && LocationFix.isAcceptable(longitude: fix.longitude)
        func keep(_ value: Double?, _ isAcceptable: (Double) -> Bool) -> Double? {
            guard placeIsGood, let value, isAcceptable(value) else { return nil }
            return value
        }
        fix.altitude = keep(fix.altitude, LocationFix.isAcceptable(altitude:))
        if keep(fix.horizontalAccuracy, LocationFix.isAcceptable(accuracy:)) == nil {
            fix.horizontalAccuracy = LocationFix.defaultHorizontalAccuracy
        }
        fix.verticalAccuracy = keep(fix.verticalAccuracy, LocationFix.isAcceptable(accuracy:))
        fix.speed = keep(fix.speed, LocationFix.isAcceptable(speed:))
        fix.course = keep(fix.course, LocationFix.isAcceptable(course:))
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
