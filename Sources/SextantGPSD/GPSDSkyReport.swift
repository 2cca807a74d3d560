import SextantCore
import SextantProtocol

/// gpsd's `SKY` (gpsd_json(5)): the satellites the receiver reports, as Sextant's sky.
///
/// Each satellite is named by its `gnssid` and `svid` (gpsd 3.18 and later; u-blox's
/// numbering, which ``Constellation`` keeps), else by its `PRN` read back through gpsd's
/// numbering (``Constellation/prn(svid:)``); `el` and `az` in degrees, `ss` the C/N0 in
/// dB-Hz (0 when absent: tracked without a signal), `used`. gpsd also sends SKYs that carry
/// only the DOPs, no `satellites`: those say nothing of the sky and are not one.
extension GPSDReport {
    static func sky(_ object: [String: JSONValue]) -> GPSDReport {
        guard case .array(let listed)? = object["satellites"] else { return .other(class: "SKY") }
        let time = object["time"]?.stringValue.flatMap(TPVFieldCheck.time(rfc3339:))
        let satellites = listed.prefix(SkyView.maximumSatellites).compactMap(satellite)
        return .sky(SkyView(satellites: satellites), time: time)
    }

    /// One satellite; nil for one of a system Sextant does not carry (IMES, NavIC) or
    /// whose number is out of its system's range. A position or a signal out of range
    /// (some receivers say az 360, el −91 or ss −1 for "unknown") is dropped, not the satellite.
    static func satellite(_ value: JSONValue) -> SatelliteInView? {
        guard case .object(let o) = value, let (constellation, svid) = name(o) else { return nil }
        func number(_ key: String, within range: ClosedRange<Double>) -> Double? {
            guard let v = o[key]?.doubleValue, v.isFinite, range.contains(v) else { return nil }
            return v
        }
        let azimuth = number("az", within: 0...360).map { $0 == 360 ? 0 : $0 }
        let satellite = SatelliteInView(
            constellation: constellation, svid: svid, elevation: number("el", within: -90...90), azimuth: azimuth,
            cn0: number("ss", within: 0...SatelliteInView.maximumCN0) ?? 0, used: o["used"] == .bool(true))
        return satellite.problem == nil ? satellite : nil
    }

    private static func name(_ o: [String: JSONValue]) -> (Constellation, Int)? {
        if let gnssid = o["gnssid"]?.intValue, let svid = o["svid"]?.intValue {
            guard let constellation = Constellation(rawValue: Int(gnssid)) else { return nil }
            return (constellation, Int(svid))
        }
        guard let prn = o["PRN"]?.intValue else { return nil }
        return satellite(prn: Int(prn))
    }

    /// gpsd's `PRN` read back (the inverse of ``Constellation/prn(svid:)``).
    static func satellite(prn: Int) -> (Constellation, Int)? {
        switch prn {
        case 1...32: return (.gps, prn)
        case 33...64: return (.sbas, prn + 87)
        case 65...96: return (.glonass, prn - 64)
        case 120...158: return (.sbas, prn)
        case 193...202: return (.qzss, prn - 192)
        case 301...336: return (.galileo, prn - 300)
        case 401...463: return (.beidou, prn - 400)
        default: return nil
        }
    }
}
