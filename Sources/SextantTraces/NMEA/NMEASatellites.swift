import SextantProtocol

/// The system a GSV or GSA sentence's talker names: `GL` GLONASS, `GA` Galileo, `GB`/`BD`
/// BeiDou, `GQ`/`QZ` QZSS; `GP`, `GN` and any other talker number the satellites of every
/// system in one range, as NMEA 0183 before 4.10 and gpsd do (`NMEASatelliteID.satellite`).
public enum NMEATalkerSystem: UInt8, Sendable, Equatable {
    case mixed, glonass, galileo, beidou, qzss

    /// The system of a sentence tag's two talker bytes.
    init(_ first: UInt8, _ second: UInt8) {
        switch (first, second) {
        case (UInt8(ascii: "G"), UInt8(ascii: "L")): self = .glonass
        case (UInt8(ascii: "G"), UInt8(ascii: "A")): self = .galileo
        case (UInt8(ascii: "G"), UInt8(ascii: "B")), (UInt8(ascii: "B"), UInt8(ascii: "D")): self = .beidou
        case (UInt8(ascii: "G"), UInt8(ascii: "Q")), (UInt8(ascii: "Q"), UInt8(ascii: "Z")): self = .qzss
        default: self = .mixed
        }
    }

    /// NMEA 4.10's GSA system id (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS), which
    /// names the system of a `GN` talker's satellites; nil for one Sextant does not carry.
    init?(systemID: Int) {
        switch systemID {
        case 1: self = .mixed
        case 2: self = .glonass
        case 3: self = .galileo
        case 4: self = .beidou
        case 5: self = .qzss
        default: return nil
        }
    }
}

/// A satellite as an NMEA sentence numbers it: its number and the system its talker names.
public struct NMEASatelliteID: Sendable, Equatable {
    public var system: NMEATalkerSystem
    public var number: Int

    public init(system: NMEATalkerSystem, number: Int) {
        self.system = system
        self.number = number
    }

    /// Its system and id there, as gpsd 3.22 reads NMEA's numbers (`nmeaid_to_prn`): by
    /// the talker's system where it names one, else by range — 1–32 GPS, 33–64 SBAS
    /// 120–151, 65–96 GLONASS 1–32, 120–158 SBAS, 193–202 QZSS 1–10, 201–263 BeiDou
    /// 1–63, 301–336 Galileo 1–36, 401–463 BeiDou 1–63. Nil for any other (IMES, NavIC).
    public var satellite: (constellation: Constellation, svid: Int)? {
        for (range, constellation, offset) in Self.numbering[Int(system.rawValue)] where range.contains(number) {
            return (constellation, number - offset)
        }
        return nil
    }

    /// Each talker system's ranges of numbers: the system they name and what to take off.
    private static let numbering: [[(ClosedRange<Int>, Constellation, Int)]] = [
        [
            (1...32, .gps, 0), (33...64, .sbas, -87), (65...96, .glonass, 64), (120...158, .sbas, 0), (193...202, .qzss, 192),
            (201...263, .beidou, 200), (301...336, .galileo, 300), (401...463, .beidou, 400),
        ],
        [(1...32, .glonass, 0), (65...96, .glonass, 64)],
        [(1...36, .galileo, 0), (301...336, .galileo, 300)],
        [(1...63, .beidou, 0), (201...263, .beidou, 200), (401...463, .beidou, 400)],
        [(1...10, .qzss, 0), (193...202, .qzss, 192)],
    ]
}

/// One satellite of a GSV sentence: where it is and how strong its signal, each when given.
public struct GSVSatellite: Sendable, Equatable {
    public var id: NMEASatelliteID
    /// Degrees above the horizon.
    public var elevation: Double?
    /// Degrees from true north, within 0 ..< 360.
    public var azimuth: Double?
    /// dB-Hz; nil when the receiver does not track it.
    public var snr: Double?

    public init(id: NMEASatelliteID, elevation: Double?, azimuth: Double?, snr: Double?) {
        self.id = id
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
    }
}

/// Satellites in view: one sentence of a group (`number` of `count`) that lists
/// `inView` satellites in all, four a sentence. No time: it belongs to the epoch it
/// arrives in.
public struct GSV: Sendable, Equatable {
    /// The system the talker names (`GL`: GLONASS), whose group this sentence belongs to.
    public var system: NMEATalkerSystem
    public var count: Int
    public var number: Int
    public var inView: Int
    public var satellites: [GSVSatellite]

    public init(system: NMEATalkerSystem, count: Int, number: Int, inView: Int, satellites: [GSVSatellite]) {
        self.system = system
        self.count = count
        self.number = number
        self.inView = inView
        self.satellites = satellites
    }
}

extension NMEAFields {
    /// `GSV,count,number,inView,{id,el,az,snr}×0…4[,signal]`: nil when the group's numbers
    /// or a satellite's values cannot be read or are out of range (an elevation beyond
    /// ±90°, an azimuth beyond 360°, an SNR beyond 99 dB-Hz). A satellite whose id is
    /// empty is a receiver's padding and left out. Without `keeping`, the satellites are
    /// checked alike but not kept (`satellites` is empty).
    func gsv(system: NMEATalkerSystem, keeping: Bool) -> GSV? {
        guard dataCount >= 3, let count = optionalInteger(1), let count, (1...9).contains(count), let number = optionalInteger(2),
            let number, (1...count).contains(number), let inView = optionalInteger(3), let inView, inView >= 0
        else { return nil }
        var satellites: [GSVSatellite] = []
        if keeping { satellites.reserveCapacity((dataCount - 3) / 4) }
        let maximumSNR = SatelliteInView.maximumCN0
        var field = 4
        while field + 3 <= dataCount + 1 {
            defer { field += 4 }
            if let id = smallWhole(field), let el = smallWhole(field + 1), let az = smallWhole(field + 2), let snr = smallWhole(field + 3) {
                // Each field one to four digits or empty (-1), as nearly every GSV's are:
                // checked as whole numbers, deciding what the general reading below would.
                guard id >= 0 else { continue }
                guard el <= 90, az <= 360, Double(snr) <= maximumSNR else { return nil }
                guard keeping else { continue }
                satellites.append(
                    GSVSatellite(
                        id: NMEASatelliteID(system: system, number: id), elevation: el < 0 ? nil : Double(el),
                        azimuth: az < 0 ? nil : Double(az == 360 ? 0 : az), snr: snr < 0 ? nil : Double(snr)))
                continue
            }
            guard let id = optionalInteger(field) else { return nil }
            guard let id else { continue }
            guard let el = optionalNumber(field + 1), let az = optionalNumber(field + 2), let snr = optionalNumber(field + 3) else { return nil }
            if let el, !(-90...90).contains(el) { return nil }
            if let az, !(0...360).contains(az) { return nil }
            if let snr, !(0...maximumSNR).contains(snr) { return nil }
            guard keeping else { continue }
            let satellite = GSVSatellite(
                id: NMEASatelliteID(system: system, number: id), elevation: el, azimuth: az.map { $0 == 360 ? 0 : $0 }, snr: snr)
            satellites.append(satellite)
        }
        return GSV(system: system, count: count, number: number, inView: inView, satellites: satellites)
    }

    /// Field `n` as a whole number of one to four digits, -1 when it is empty (or beyond the
    /// last), nil when it is anything else (a sign, a point, more digits).
    @inline(__always)
    private func smallWhole(_ n: Int) -> Int? {
        isEmpty(n) ? -1 : NMEANumber.shortWholeNumber(bytes(n))
    }

    /// GSA's fields 3–14, the satellites the fix uses: nil when one cannot be read. NMEA
    /// 4.10's system id (field 18) names the system of a `GN` talker's numbers. Without
    /// `keeping`, checked alike and answered empty.
    func gsaUsed(system talker: NMEATalkerSystem, keeping: Bool) -> [NMEASatelliteID]? {
        var system = talker
        if dataCount >= 18, let id = optionalInteger(18), let id, let named = NMEATalkerSystem(systemID: id) { system = named }
        var used: [NMEASatelliteID] = []
        for field in 3...14 {
            guard let number = optionalInteger(field) else { return nil }
            if keeping, let number { used.append(NMEASatelliteID(system: system, number: number)) }
        }
        return used
    }
}
