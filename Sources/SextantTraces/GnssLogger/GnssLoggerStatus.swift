import SextantCore
import SextantProtocol

/// Where a `Status` row's values are (GnssLogger v2 and later: one row a signal of
/// Android's `GnssStatus`, `SignalIndex` 0 to `SignalCount` − 1 making one epoch).
struct GnssLoggerStatusColumns: Sendable {
    let time, signalCount, signalIndex, constellation, svid, cn0, azimuth, elevation, used: Int?

    init(_ c: GnssLoggerColumns) {
        time = c.position("unixtimemillis", "utctimemillis")
        signalCount = c.position("signalcount")
        signalIndex = c.position("signalindex")
        constellation = c.position("constellationtype")
        svid = c.position("svid")
        cn0 = c.position("cn0dbhz")
        azimuth = c.position("azimuthdegrees")
        elevation = c.position("elevationdegrees")
        used = c.position("usedinfix")
    }

    /// The row's satellite (nil for a system Sextant does not carry: IRNSS, unknown), its
    /// epoch's time, and whether it is its epoch's last signal.
    func satellite(_ row: GnssLoggerFields) throws(GnssLoggerFieldProblem) -> (SatelliteInView?, Timestamp, last: Bool) {
        let time = try row.time(at: time, kind: "Status")
        let count = try row.number(at: signalCount, column: "SignalCount")
        let index = try row.number(at: signalIndex, column: "SignalIndex")
        // Without both columns every row is an epoch of its own.
        var isLast = true
        if let count, let index { isLast = index + 1 >= count }
        let type = try row.required(at: constellation, column: "ConstellationType", kind: "Status")
        guard let system = Constellation(androidType: Int(type)) else { return (nil, time, isLast) }
        var azimuth = try row.number(at: azimuth, column: "AzimuthDegrees")
        if azimuth == 360 { azimuth = 0 }
        let satellite = SatelliteInView(
            constellation: system, svid: Int(try row.required(at: svid, column: "Svid", kind: "Status")),
            elevation: try row.number(at: elevation, column: "ElevationDegrees"), azimuth: azimuth,
            cn0: max(0, try row.number(at: cn0, column: "Cn0DbHz") ?? 0),
            used: (try row.number(at: used, column: "UsedInFix") ?? 0) != 0)
        if let problem = satellite.problem { throw GnssLoggerFieldProblem(reason: "Status row: \(problem)") }
        return (satellite, time, isLast)
    }
}

/// Gathers one epoch's `Status` rows into a sky. A satellite seen on two signals (L1 and
/// L5) is one satellite: its strongest C/N0, used if either signal is.
struct GnssLoggerSkyEpoch {
    private var satellites: [SatelliteInView] = []
    private(set) var time: Timestamp?
    private(set) var line = 0

    mutating func add(_ satellite: SatelliteInView?, time: Timestamp, line: Int) {
        if self.time == nil {
            self.time = time
            self.line = line
        }
        guard let satellite else { return }
        if let k = satellites.firstIndex(where: { $0.constellation == satellite.constellation && $0.svid == satellite.svid }) {
            satellites[k].cn0 = max(satellites[k].cn0, satellite.cn0)
            satellites[k].used = satellites[k].used || satellite.used
        } else if satellites.count < SkyView.maximumSatellites {
            satellites.append(satellite)
        }
    }

    /// The sky gathered, and a fresh epoch.
    mutating func take() -> (SkyView, Timestamp, line: Int)? {
        defer { self = GnssLoggerSkyEpoch() }
        guard let time else { return nil }
        return (SkyView(satellites: satellites), time, line)
    }
}
