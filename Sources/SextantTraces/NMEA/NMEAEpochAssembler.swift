/// What a receiver said in one navigation cycle (one epoch), merged from every sentence
/// of the cycle.
///
/// A receiver sends its solution for one instant as several sentences (GGA, GSA, GSV,
/// RMC, VTG…). The sentences that carry a time of day (RMC, GGA, GLL, GNS) and carry the
/// same one belong to one epoch; the sentences without a time (GSA, GSV, VTG, and the
/// headings HDT, HDM, HDG) belong to the epoch they arrive in. ZDA and GST carry a time
/// but no position: they never open an epoch (an Ashtech sends its ZDA two seconds ahead
/// of the cycle it ends).
struct NMEAEpoch: Equatable {
    /// The cycle's time of day; nil for no-fix reports that carry no time
    /// (`$GPGGA,,,,,,0,,,,M,,M,,*66`).
    var time: NMEATimeOfDay?
    /// The first line of the epoch (1-based).
    var line: Int
    /// The last position a sentence of the cycle gave with a valid status; nil when
    /// every position sentence of the cycle said "no fix".
    var position: NMEAPosition?
    /// Metres above mean sea level (GGA, GNS).
    var altitude: Double?
    var speedKnots: Double?
    var course: Double?
    var hdop: Double?
    var vdop: Double?
    /// 1-σ errors in metres from GST.
    var latitudeError: Double?
    var longitudeError: Double?
    var altitudeError: Double?
    /// The cycle's last headings (HDT, HDM, HDG), each kind of north on its own.
    var magneticHeading: Double?
    var trueHeading: Double?
    /// The cycle's GSV and GSA satellites (`NMEAEpochSky`).
    var satellites = NMEAEpochSky()

    var isFix: Bool { position != nil }

    init(time: NMEATimeOfDay?, line: Int) {
        self.time = time
        self.line = line
    }
}

/// What the timeline needs, in the order of the log: epochs and calendar dates.
enum NMEAEvent: Equatable {
    case epoch(NMEAEpoch)
    /// A date the receiver gave (a valid RMC's or a ZDA's) with the time of day it goes with.
    case date(NMEADate, time: NMEATimeOfDay)
}

/// Groups decoded sentences into epochs (see `NMEAEpoch`).
///
/// Within an epoch the later sentence wins for each value, as in gpsd: a GNRMC after a
/// GNGGA gives the position with the RMC's digits. Only sentences whose own status says
/// "fix" give values; a no-fix sentence only tells that the receiver has none.
struct NMEAEpochAssembler: NMEASentenceSink {
    private(set) var events: [NMEAEvent] = []
    /// The epoch being assembled, when `isOpen`. Not an optional: an optional epoch (which
    /// holds its sky's arrays) is copied whole to set one of its fields, and the sentences
    /// without a time (GSA, GSV, VTG, HDT) each set one.
    private var current = NMEAEpoch(time: nil, line: 0)
    private var isOpen = false
    /// GSV groups under way, one a talker's system.
    private var gsvGroups: [NMEAGSVGroup] = []

    mutating func take(_ sentence: borrowing NMEASentence, line: Int) {
        switch sentence.body {
        case .rmc(let rmc):
            epoch(at: rmc.time, line: line, reportsFix: rmc.isValid) { epoch in
                guard rmc.isValid, let position = rmc.position else { return }
                epoch.position = position
                if let speed = rmc.speedKnots { epoch.speedKnots = speed }
                if let course = rmc.course { epoch.course = course }
            }
            // A date only from an RMC that has a fix: MTK and Royaltek receivers send
            // 1980-01-05 (their firmware's default) until they have one.
            if rmc.isValid, let date = rmc.date, let time = rmc.time { events.append(.date(date, time: time)) }
        case .gga(let gga):
            epoch(at: gga.time, line: line, reportsFix: gga.isFix) { epoch in
                guard gga.isFix, let position = gga.position else { return }
                epoch.position = position
                if let altitude = gga.altitude { epoch.altitude = altitude }
                if let hdop = gga.hdop { epoch.hdop = hdop }
            }
        case .gll(let gll):
            epoch(at: gll.time, line: line, reportsFix: gll.isValid) { epoch in
                guard gll.isValid, let position = gll.position else { return }
                epoch.position = position
            }
        case .gns(let gns):
            epoch(at: gns.time, line: line, reportsFix: gns.isValid) { epoch in
                guard gns.isValid, let position = gns.position else { return }
                epoch.position = position
                if let altitude = gns.altitude { epoch.altitude = altitude }
                if let hdop = gns.hdop { epoch.hdop = hdop }
            }
        case .gsa(let gsa):
            guard isOpen else { break }
            if let hdop = gsa.hdop { current.hdop = hdop }
            if let vdop = gsa.vdop { current.vdop = vdop }
            current.satellites.markUsed(gsa.used)
        case .gsv(let gsv):
            if let group = NMEAGSVGroup.add(gsv, to: &gsvGroups), isOpen { current.satellites.add(group: group) }
        case .vtg(let vtg):
            guard vtg.isValid, isOpen else { break }
            if let speed = vtg.speedKnots { current.speedKnots = speed }
            if let course = vtg.course { current.course = course }
        case .gst(let gst):
            // Its time says which cycle it describes; one for another cycle is stale.
            guard isOpen, gst.time == nil || gst.time == current.time else { break }
            if let e = gst.latitudeError { current.latitudeError = e }
            if let e = gst.longitudeError { current.longitudeError = e }
            if let e = gst.altitudeError { current.altitudeError = e }
        case .heading(let heading):
            guard isOpen else { break }
            if let magnetic = heading.magnetic { current.magneticHeading = magnetic }
            if let trueHeading = heading.trueHeading { current.trueHeading = trueHeading }
        case .zda(let zda):
            if let date = zda.date, let time = zda.time { events.append(.date(date, time: time)) }
        case .other:
            break
        }
    }

    /// Hands the events completed so far to `body` and forgets them (a log read as a
    /// stream keeps none).
    mutating func drain(_ body: (NMEAEvent) -> Void) {
        guard !events.isEmpty else { return }
        for event in events { body(event) }
        events.removeAll(keepingCapacity: true)
    }

    /// The epochs and dates of the whole log.
    mutating func finish() -> [NMEAEvent] {
        close()
        return events
    }

    /// Runs `update` on the epoch a position sentence belongs to: the current one when
    /// the times agree, else a new one. A sentence without a time joins the current
    /// epoch when it has a fix (an old Garmin's GLL); a no-fix report without a time
    /// (`$GPRMC,,V,,…`, a receiver that lost its fix and its clock) starts an untimed
    /// epoch of its own, unless the current one is already untimed.
    private mutating func epoch(at time: NMEATimeOfDay?, line: Int, reportsFix: Bool, _ update: (inout NMEAEpoch) -> Void) {
        let belongs: Bool
        if let time {
            belongs = isOpen && current.time == time
        } else {
            belongs = isOpen && (reportsFix || current.time == nil)
        }
        if !belongs {
            close()
            current = NMEAEpoch(time: time, line: line)
            isOpen = true
        }
        update(&current)
    }

    private mutating func close() {
        if isOpen {
            // Moved into the event, not copied: the next epoch replaces it anyway.
            var closed = NMEAEpoch(time: nil, line: 0)
            swap(&closed, &current)
            events.append(.epoch(closed))
        }
        isOpen = false
    }
}
