import Foundation
import SextantCore
import SextantProtocol

/// gpsd's `SKY` report (gpsd_json(5)): the satellites in view beside the TPVs, for a client
/// whose `?WATCH` streams JSON (cgps's satellite panel, `gpspipe -w`). It leaves under the
/// rules of a fix with full accuracy (RULES N8), as every event of its kind.
extension SatellitesEvent: GPSDEncodable {
    func deliver(to connection: GPSDConnection) { connection.receive(sky) }
}

extension GPSDConnection {
    func receive(_ sky: WireSky) {
        let device = owner.currentDevice()
        guard watch.enable, watch.json, watch.device == nil || watch.device == device else { return }
        send(GPSDReport.sky(sky, device: device), kind: .location)
    }
}

extension GPSDReport {
    /// `{"class":"SKY","device":…,"time":…,"nSat":N,"uSat":N,"satellites":[…]}`, each
    /// satellite in gpsd's member order (`PRN`, `el`, `az`, `ss`, `used`, `gnssid`,
    /// `svid`) with its one decimal; `el` and `az` only when known.
    static func sky(_ sky: WireSky, device: String) -> String {
        var o = ObjectWriter("SKY")
        o.string("device", device)
        o.string("time", sky.time.rfc3339)
        o.integer("nSat", sky.sky.inView)
        o.integer("uSat", sky.sky.used)
        let satellites = sky.sky.satellites.map { satellite -> String in
            var s = "{\"PRN\":\(satellite.prn)"
            if let el = satellite.elevation { s += ",\"el\":" + fixed(el, 1) }
            if let az = satellite.azimuth { s += ",\"az\":" + fixed(az, 1) }
            s += ",\"ss\":" + fixed(satellite.cn0, 1) + ",\"used\":" + (satellite.used ? "true" : "false")
            return s + ",\"gnssid\":\(satellite.constellation.rawValue),\"svid\":\(satellite.svid)}"
        }
        o.raw("satellites", "[" + satellites.joined(separator: ",") + "]")
        return o.line
    }

    private static func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
}
