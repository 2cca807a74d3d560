import SextantProtocol

/// One NMEA 0183 sentence that passed its checksum, decoded into the fields Sextant uses.
///
/// Only the sentences that carry a position, a time, a date, a velocity, an accuracy
/// hint or the satellites (GSV, GSA) are decoded; every other one (proprietary `$P…` sentences, depth sounders,
/// AIS) is `.other` and ignored by the reader. The talker (GP, GN, GL, GA, GB, BD, QZ, IN,
/// EC, …) is kept but never changes the meaning: a GNRMC is read like a GPRMC.
public struct NMEASentence: Sendable, Equatable {
    /// The two-letter talker id (`GP`, `GN`, …); empty for proprietary sentences.
    public var talker: String
    public var body: Body

    public init(talker: String, body: Body) {
        self.talker = talker
        self.body = body
    }

    public enum Body: Sendable, Equatable {
        case rmc(RMC)
        case gga(GGA)
        case gll(GLL)
        case gns(GNS)
        case gsa(GSA)
        case gsv(GSV)
        case vtg(VTG)
        case zda(ZDA)
        case gst(GST)
        /// HDT, HDM or HDG.
        case heading(NMEAHeading)
        /// A well-formed sentence Sextant has no use for (TXT, DBT, `$PGRME`, …),
        /// by its type (`TXT`, `PGRME`).
        case other(String)
    }
}

/// A time of day in UTC, in nanoseconds since midnight (0 ..< 86 400 s; a leap second
/// reads as 86 400 s… at most 86 401 s).
public typealias NMEATimeOfDay = Int64

/// A position the sentence gave, before any validity check: the sentence's own status
/// says whether it is a fix.
public struct NMEAPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A calendar date (UTC) as RMC or ZDA carry it.
public struct NMEADate: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int64 { Timestamp.days(fromCivil: year, month, day) }
}

/// The FAA mode indicator (NMEA 2.3+) of RMC, GLL, VTG and GNS: how the fix was made.
public enum NMEAModeIndicator: Sendable, Equatable {
    /// Autonomous, differential, estimated (dead reckoning), RTK float or fixed, precise.
    case valid
    /// `N` (not valid), `S` (simulator) or `M` (manual input): not a measured position.
    case invalid
    /// Absent (older receivers): the sentence's status decides alone.
    case absent

    init(_ letter: UInt8?) {
        switch letter {
        case nil: self = .absent
        case UInt8(ascii: "A"), UInt8(ascii: "D"), UInt8(ascii: "E"), UInt8(ascii: "F"), UInt8(ascii: "R"), UInt8(ascii: "P"):
            self = .valid
        default: self = .invalid
        }
    }
}

/// Recommended minimum data: time, status, position, speed, course, date.
public struct RMC: Sendable, Equatable {
    public var time: NMEATimeOfDay?
    /// `A` (or `D`) and a mode indicator that is not N/S/M: the receiver calls it a fix.
    public var isValid: Bool
    public var position: NMEAPosition?
    /// Knots over ground.
    public var speedKnots: Double?
    /// Degrees from true north.
    public var course: Double?
    /// Absent or unreadable (`2208-1`, a Telit after the 2019 week rollover) is nil.
    public var date: NMEADate?

    public init(time: NMEATimeOfDay?, isValid: Bool, position: NMEAPosition?, speedKnots: Double?, course: Double?, date: NMEADate?) {
        self.time = time
        self.isValid = isValid
        self.position = position
        self.speedKnots = speedKnots
        self.course = course
        self.date = date
    }
}

/// Fix data: time, position, quality, satellites, HDOP, altitude above mean sea level.
public struct GGA: Sendable, Equatable {
    public var time: NMEATimeOfDay?
    public var position: NMEAPosition?
    /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning,
    /// 7 manual input, 8 simulator.
    public var quality: Int
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Metres above mean sea level.
    public var altitude: Double?

    public init(time: NMEATimeOfDay?, position: NMEAPosition?, quality: Int, satellitesUsed: Int?, hdop: Double?, altitude: Double?) {
        self.time = time
        self.position = position
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.altitude = altitude
    }

    /// Qualities 1 to 6 are measured positions (6, dead reckoning, as phones report it
    /// too); 0 is no fix, 7 (manual) and 8 (simulator) are not measurements. A quality
    /// with fewer than 3 satellites in use is no fix either: Hemisphere receivers keep
    /// saying 1 with 0 satellites while they coast, and gpsd reads them the same way.
    public var isFix: Bool {
        guard (1...6).contains(quality) else { return false }
        if let satellitesUsed, satellitesUsed < 3 { return false }
        return true
    }
}

/// Geographic position: latitude, longitude, time, status.
public struct GLL: Sendable, Equatable {
    public var time: NMEATimeOfDay?
    public var position: NMEAPosition?
    /// Status `A` and a mode indicator that is not N/S/M. Very old receivers (Garmin 65)
    /// send neither status nor time: such a GLL is taken as valid.
    public var isValid: Bool

    public init(time: NMEATimeOfDay?, position: NMEAPosition?, isValid: Bool) {
        self.time = time
        self.position = position
        self.isValid = isValid
    }
}

/// Multi-constellation fix data (NMEA 4): like GGA with one mode letter per system.
public struct GNS: Sendable, Equatable {
    public var time: NMEATimeOfDay?
    public var position: NMEAPosition?
    /// Any constellation's mode letter is valid and the navigation status is not U/V.
    public var isValid: Bool
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Metres above mean sea level.
    public var altitude: Double?

    public init(time: NMEATimeOfDay?, position: NMEAPosition?, isValid: Bool, satellitesUsed: Int?, hdop: Double?, altitude: Double?) {
        self.time = time
        self.position = position
        self.isValid = isValid
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.altitude = altitude
    }
}

/// DOP and active satellites. It has no time: it belongs to the epoch it arrives in.
public struct GSA: Sendable, Equatable {
    /// 1 no fix, 2 2D, 3 3D.
    public var fixMode: Int?
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?
    /// The satellites the fix uses (fields 3–14), each as the sentence numbers it.
    public var used: [NMEASatelliteID]

    public init(fixMode: Int?, pdop: Double?, hdop: Double?, vdop: Double?, used: [NMEASatelliteID] = []) {
        self.fixMode = fixMode
        self.pdop = pdop
        self.hdop = hdop
        self.vdop = vdop
        self.used = used
    }
}

/// Track made good and ground speed. No time: it belongs to the epoch it arrives in.
public struct VTG: Sendable, Equatable {
    /// Degrees from true north.
    public var course: Double?
    public var speedKnots: Double?
    /// False when the mode indicator says N (not valid), S or M.
    public var isValid: Bool

    public init(course: Double?, speedKnots: Double?, isValid: Bool) {
        self.course = course
        self.speedKnots = speedKnots
        self.isValid = isValid
    }
}

/// Time and date.
public struct ZDA: Sendable, Equatable {
    public var time: NMEATimeOfDay?
    public var date: NMEADate?

    public init(time: NMEATimeOfDay?, date: NMEADate?) {
        self.time = time
        self.date = date
    }
}

/// Pseudorange error statistics: 1-σ errors in metres, the best accuracy hint NMEA has.
public struct GST: Sendable, Equatable {
    public var time: NMEATimeOfDay?
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?

    public init(time: NMEATimeOfDay?, latitudeError: Double?, longitudeError: Double?, altitudeError: Double?) {
        self.time = time
        self.latitudeError = latitudeError
        self.longitudeError = longitudeError
        self.altitudeError = altitudeError
    }
}

/// A heading from a gyro or magnetic compass: HDT (true), HDM (magnetic), or HDG (the
/// magnetic sensor's heading, its deviation and the magnetic variation). Degrees
/// clockwise, within 0 ..< 360; nil for a field the sentence leaves empty (a Hemisphere
/// without a heading sends `$GPHDT,,T`).
public struct NMEAHeading: Sendable, Equatable {
    /// From magnetic north: HDM's, or HDG's sensor heading with its deviation applied.
    public var magnetic: Double?
    /// From true north: HDT's, or HDG's magnetic heading with its variation applied.
    public var trueHeading: Double?

    public init(magnetic: Double?, trueHeading: Double?) {
        self.magnetic = magnetic
        self.trueHeading = trueHeading
    }

    /// HDG's values, as NMEA 0183 defines them: magnetic = sensor + deviation, true =
    /// magnetic + variation, easterly ones added and westerly ones subtracted.
    public init(sensor: Double?, deviation: Double?, variation: Double?) {
        let magnetic = sensor.map { Self.wrapped($0 + (deviation ?? 0)) }
        self.init(magnetic: magnetic, trueHeading: variation.flatMap { v in magnetic.map { Self.wrapped($0 + v) } })
    }

    /// Degrees within 0 ..< 360.
    static func wrapped(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }
}
