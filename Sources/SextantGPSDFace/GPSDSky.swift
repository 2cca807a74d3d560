import Foundation
import SextantCore
import SextantHub
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
    /// The most satellites one `SKY` lists (RULES G6). cgps 3.22 prints every report it
    /// reads in its raw pane, and ncurses ends it (SIGSEGV) on a line of (columns + 1) ×
    /// rows bytes or more: 1944 on an 80×24 terminal, the smallest it runs on. 20 of the
    /// longest satellite objects and the longest head stay under that (`GPSDSkyTests`).
    static let skySatelliteLimit = 20

    /// The satellites one `SKY` lists: those the fix uses, then the others, each group
    /// strongest first, at most ``skySatelliteLimit``.
    static func listed(_ sky: SkyView) -> [SatelliteInView] {
        let ordered = sky.satellites.enumerated().sorted { a, b in
            if a.element.used != b.element.used { return a.element.used }
            if a.element.cn0 != b.element.cn0 { return a.element.cn0 > b.element.cn0 }
            return a.offset < b.offset
        }
        return ordered.prefix(skySatelliteLimit).map(\.element)
    }

    /// `{"class":"SKY","device":…,"time":…,"nSat":N,"uSat":N,"satellites":[…]}` in gpsd
    /// 3.22's member order; `nSat` and `uSat` count the satellites listed, as gpsd counts
    /// its list. Each satellite in gpsd's member order (`PRN`, `el`, `az`, `ss`, `used`,
    /// `gnssid`, `svid`) with its one decimal; `el` and `az` only when known.
    static func sky(_ sky: WireSky, device: String) -> String {
        let satellites = listed(sky.sky)
        var o = ObjectWriter("SKY")
        o.string("device", device)
        o.string("time", sky.time.rfc3339)
        o.integer("nSat", satellites.count)
        o.integer("uSat", satellites.reduce(0) { $0 + ($1.used ? 1 : 0) })
        if !satellites.isEmpty { o.raw("satellites", "[" + satellites.map(satelliteObject).joined(separator: ",") + "]") }
        return o.line
    }

    static func satelliteObject(_ satellite: SatelliteInView) -> String {
        var s = "{\"PRN\":\(satellite.prn)"
        if let el = satellite.elevation { s += ",\"el\":" + String(format: "%.1f", el) }
        if let az = satellite.azimuth { s += ",\"az\":" + String(format: "%.1f", az) }
        s += ",\"ss\":" + String(format: "%.1f", satellite.cn0) + ",\"used\":" + (satellite.used ? "true" : "false")
        return s + ",\"gnssid\":\(satellite.constellation.rawValue),\"svid\":\(satellite.svid)}"
    }
}
