/// A satellite system, numbered as gpsd numbers it (`gnssid`, u-blox's numbering).
public enum Constellation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case gps = 0
    case sbas = 1
    case galileo = 2
    case beidou = 3
    case qzss = 5
    case glonass = 6

    /// Android's `GnssStatus` constellation type (GnssLogger's `ConstellationType`), or nil
    /// for one Sextant does not carry (IRNSS 7, unknown 0).
    public init?(androidType: Int) {
        switch androidType {
        case 1: self = .gps
        case 2: self = .sbas
        case 3: self = .glonass
        case 4: self = .qzss
        case 5: self = .beidou
        case 6: self = .galileo
        default: return nil
        }
    }

    /// Its name in traces and on app.sock.
    public var description: String {
        switch self {
        case .gps: return "gps"
        case .sbas: return "sbas"
        case .galileo: return "galileo"
        case .beidou: return "beidou"
        case .qzss: return "qzss"
        case .glonass: return "glonass"
        }
    }

    public init?(name: String) {
        guard let found = Constellation.allCases.first(where: { $0.description == name }) else { return nil }
        self = found
    }

    /// gpsd's `PRN` for satellite `svid` of this system: GPS as it is, SBAS 120–151 as
    /// NMEA's 33–64 (svid − 87; 152–158 as they are), GLONASS 64 + svid, QZSS 192 + svid,
    /// Galileo 300 + svid, BeiDou 400 + svid (what gpsd 3.22 writes in the shared `.chk`
    /// files: isync.log.chk's SBAS 133 is `"PRN":46`).
    public func prn(svid: Int) -> Int {
        switch self {
        case .gps: return svid
        case .sbas: return (120...151).contains(svid) ? svid - 87 : svid
        case .glonass: return 64 + svid
        case .qzss: return 192 + svid
        case .galileo: return 300 + svid
        case .beidou: return 400 + svid
        }
    }

    /// The satellite ids a system's satellites have (Android's `GnssStatus` ranges).
    public var svids: ClosedRange<Int> {
        switch self {
        case .gps: return 1...63
        case .sbas: return 120...158
        case .glonass: return 1...32
        case .qzss: return 1...10
        case .galileo: return 1...36
        case .beidou: return 1...63
        }
    }
}

/// One satellite the receiver tracks: where it is in the sky (when known), how strong its
/// signal is, and whether the fix uses it (gpsd's satellite object, Android's `GnssStatus`).
public struct SatelliteInView: Sendable, Equatable {
    public var constellation: Constellation
    public var svid: Int
    /// Degrees above the horizon, -90...90; nil when the source does not say.
    public var elevation: Double?
    /// Degrees clockwise from true north, 0..<360; nil when the source does not say.
    public var azimuth: Double?
    /// Carrier-to-noise density, dB-Hz (gpsd's `ss`); 0 when tracked without a signal.
    public var cn0: Double
    public var used: Bool

    public init(constellation: Constellation, svid: Int, elevation: Double? = nil, azimuth: Double? = nil, cn0: Double, used: Bool) {
        self.constellation = constellation
        self.svid = svid
        self.elevation = elevation
        self.azimuth = azimuth
        self.cn0 = cn0
        self.used = used
    }

    /// gpsd's `PRN`.
    public var prn: Int { constellation.prn(svid: svid) }

    /// The largest C/N0 a satellite may carry, dB-Hz (a strong signal is about 50).
    public static let maximumCN0 = 99.0

    /// Why these values are not a satellite, or nil: the one check of every source's.
    public var problem: String? {
        guard constellation.svids.contains(svid) else { return "svid \(svid) is not a \(constellation) satellite (\(constellation.svids))" }
        if let elevation, !(elevation.isFinite && (-90...90).contains(elevation)) { return "el must be within -90...90 degrees" }
        if let azimuth, !(azimuth.isFinite && (0..<360).contains(azimuth)) { return "az must be within 0..<360 degrees" }
        guard cn0.isFinite, (0...Self.maximumCN0).contains(cn0) else { return "cn0 must be within 0...\(Int(Self.maximumCN0)) dB-Hz" }
        return nil
    }

    /// Its members as app.sock and Sextant traces write them (`constellation`, `svid`, `prn`,
    /// `el`, `az`, `cn0`, `used`).
    public var jsonValue: JSONValue {
        var o: [String: JSONValue] = [
            "constellation": .string(constellation.description), "svid": .int(Int64(svid)), "prn": .int(Int64(prn)),
            "cn0": .double(cn0), "used": .bool(used),
        ]
        if let elevation { o["el"] = .double(elevation) }
        if let azimuth { o["az"] = .double(azimuth) }
        return .object(o)
    }

    /// A satellite from a JSON object as `jsonValue` writes it (`prn` is worked out, not read);
    /// the error names the member.
    public static func read(_ value: JSONValue) -> Result<SatelliteInView, SkyProblem> {
        guard case .object(let o) = value else { return .failure(SkyProblem("a satellite must be an object")) }
        guard let name = o["constellation"]?.stringValue, let constellation = Constellation(name: name) else {
            return .failure(SkyProblem("a satellite's constellation must be one of \(Constellation.allCases.map(\.description).joined(separator: ", "))"))
        }
        guard let svid = o["svid"]?.intValue else { return .failure(SkyProblem("a satellite's svid must be an integer")) }
        guard let cn0 = o["cn0"]?.doubleValue else { return .failure(SkyProblem("a satellite's cn0 must be a number (dB-Hz)")) }
        guard case .bool(let used)? = o["used"] else { return .failure(SkyProblem("a satellite's used must be true or false")) }
        func optional(_ key: String) -> Result<Double?, SkyProblem> {
            guard let v = o[key], !v.isNull else { return .success(nil) }
            guard let d = v.doubleValue else { return .failure(SkyProblem("a satellite's \(key) must be a number")) }
            return .success(d)
        }
        let satellite: SatelliteInView
        do {
            satellite = SatelliteInView(
                constellation: constellation, svid: Int(svid), elevation: try optional("el").get(), azimuth: try optional("az").get(),
                cn0: cn0, used: used)
        } catch { return .failure(error) }
        if let problem = satellite.problem { return .failure(SkyProblem("satellite \(constellation) \(svid): \(problem)")) }
        return .success(satellite)
    }
}

/// Why a sky or a satellite was refused: a message naming the member.
public struct SkyProblem: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The satellites in view at one instant (gpsd's `SKY`, Android's `GnssStatus`): empty when
/// the receiver sees none (a tunnel).
public struct SkyView: Sendable, Equatable {
    /// One entry per satellite (constellation and svid): ``init(satellites:)`` merges copies.
    public private(set) var satellites: [SatelliteInView]

    /// The sky of these satellites, a satellite listed twice (a receiver's two signals of it,
    /// GnssLogger's one row per band, a GSV repeated, a trace written so) kept once, where it
    /// first came: the strongest C/N0 of its copies, used when any copy is, the first known
    /// position. Every source's sky is made here, so no app or gpsd client sees one twice.
    public init(satellites: [SatelliteInView]) { self.satellites = Self.merged(satellites) }

    private struct SatelliteKey: Hashable {
        let constellation: Constellation
        let svid: Int
    }

    private static func merged(_ list: [SatelliteInView]) -> [SatelliteInView] {
        var index: [SatelliteKey: Int] = [:]
        var result: [SatelliteInView] = []
        result.reserveCapacity(list.count)
        for satellite in list {
            let key = SatelliteKey(constellation: satellite.constellation, svid: satellite.svid)
            guard let at = index[key] else {
                index[key] = result.count
                result.append(satellite)
                continue
            }
            var kept = result[at]
            kept.cn0 = max(kept.cn0, satellite.cn0)
            kept.used = kept.used || satellite.used
            if kept.elevation == nil || kept.azimuth == nil { (kept.elevation, kept.azimuth) = (satellite.elevation, satellite.azimuth) }
            result[at] = kept
        }
        return result
    }

    /// Satellites in view (gpsd's `nSat`).
    public var inView: Int { satellites.count }
    /// Satellites the fix uses (gpsd's `uSat`).
    public var used: Int { satellites.reduce(0) { $0 + ($1.used ? 1 : 0) } }

    /// The most satellites a sky holds: more than every system's satellites together.
    public static let maximumSatellites = 255

    /// `{"satellites":[…],"inView":N,"used":N}`: the sky as app.sock and traces write it.
    public var jsonValue: JSONValue {
        .object(["satellites": .array(satellites.map(\.jsonValue)), "inView": .int(Int64(inView)), "used": .int(Int64(used))])
    }

    /// A sky from the object `jsonValue` writes (`inView` and `used` are worked out, not
    /// read); the error names the member and the satellite.
    public static func read(_ value: JSONValue) -> Result<SkyView, SkyProblem> {
        guard case .object(let o) = value, case .array(let list)? = o["satellites"] else {
            return .failure(SkyProblem("sky.satellites must be an array"))
        }
        guard list.count <= maximumSatellites else { return .failure(SkyProblem("sky.satellites holds at most \(maximumSatellites)")) }
        var satellites: [SatelliteInView] = []
        satellites.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            switch SatelliteInView.read(item) {
            case .success(let satellite): satellites.append(satellite)
            case .failure(let problem): return .failure(SkyProblem("sky.satellites[\(index)]: \(problem.description)"))
            }
        }
        return .success(SkyView(satellites: satellites))
    }
}
