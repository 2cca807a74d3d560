import SextantProtocol

/// What one cycle's satellite sentences said (RULES N8): the satellites its complete GSV
/// groups listed, and those its GSA sentences said the fix uses.
///
/// A satellite that a receiver lists once a signal (NMEA 4.10: GPS L1 and L5 in two
/// groups) is one satellite, with its strongest signal. A satellite whose number names no
/// system Sextant carries (IMES, NavIC) is left out.
struct NMEAEpochSky: Equatable, Sendable {
    private(set) var satellites: [SatelliteInView] = []
    /// Whether a GSV group ended in this cycle: only then does the cycle say what is in view.
    private(set) var listed = false
    /// `Constellation.rawValue << 16 | svid` of each satellite a GSA said is used.
    private var used: [Int] = []

    mutating func add(group: [GSVSatellite]) {
        listed = true
        for entry in group {
            guard let found = entry.id.satellite else { continue }
            let (constellation, svid) = found
            let satellite = SatelliteInView(
                constellation: constellation, svid: svid, elevation: entry.elevation, azimuth: entry.azimuth, cn0: entry.snr ?? 0, used: false)
            guard satellite.problem == nil else { continue }
            if let i = satellites.firstIndex(where: { $0.constellation == constellation && $0.svid == svid }) {
                satellites[i].cn0 = max(satellites[i].cn0, satellite.cn0)
                satellites[i].elevation = satellites[i].elevation ?? satellite.elevation
                satellites[i].azimuth = satellites[i].azimuth ?? satellite.azimuth
            } else if satellites.count < SkyView.maximumSatellites {
                satellites.append(satellite)
            }
        }
    }

    mutating func markUsed(_ ids: [NMEASatelliteID]) {
        for id in ids {
            if let found = id.satellite { used.append(found.constellation.rawValue << 16 | found.svid) }
        }
    }

    /// The cycle's sky, when a GSV group ended in it.
    var sky: SkyView? {
        guard listed else { return nil }
        return SkyView(satellites: satellites.map { satellite in
            var s = satellite
            s.used = used.contains(satellite.constellation.rawValue << 16 | satellite.svid)
            return s
        })
    }
}

/// A GSV group being read, sentence by sentence, for one talker's system.
struct NMEAGSVGroup: Equatable, Sendable {
    var system: NMEATalkerSystem
    var count: Int
    var next: Int
    var satellites: [GSVSatellite]

    /// The groups under way after `gsv`, and the satellites of the group it ended, if it
    /// ended one. A sentence out of turn (a lost one before it) drops its group: a sky
    /// missing satellites would say fewer are in view than are.
    static func add(_ gsv: GSV, to groups: inout [NMEAGSVGroup]) -> [GSVSatellite]? {
        let found = groups.firstIndex { $0.system == gsv.system }
        let index: Int
        if gsv.number == 1 {
            // A group of one sentence ends as it starts.
            guard gsv.count > 1 else {
                if let found { groups.remove(at: found) }
                return gsv.satellites
            }
            let group = NMEAGSVGroup(system: gsv.system, count: gsv.count, next: 1, satellites: [])
            if let found { groups[found] = group } else { groups.append(group) }
            index = found ?? groups.count - 1
        } else if let found, groups[found].next == gsv.number, groups[found].count == gsv.count {
            index = found
        } else {
            if let found { groups.remove(at: found) }
            return nil
        }
        // In place: a copy of the group would copy its satellites to append to them.
        groups[index].satellites += gsv.satellites
        groups[index].next += 1
        guard gsv.number == gsv.count else { return nil }
        return groups.remove(at: index).satellites
    }
}
