#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// A point on a region's local plane: metres east (`x`) and north (`y`) of its centre.
struct PlanePoint {
    var x: Double
    var y: Double
    var length: Double { (x * x + y * y).squareRoot() }
}

/// One monitored region and what was decided of it (R1–R6). Positions are taken onto the
/// region's own local plane (equirectangular about its centre: within 0.1 % of the
/// great-circle distance at the radii allowed, R8), where a move between two fixes is a
/// straight segment.
struct RegionWatch: Sendable {
    private(set) var region: CircularRegion
    private(set) var state: RegionState = .unknown
    /// When the stay inside began (entry or first determination), for dwell (R6).
    private var insideSince: Timestamp?
    private var dwelt = false
    /// Metres per degree of longitude at the centre's latitude.
    private let eastScale: Double
    /// Radius plus hysteresis: a fix beyond it is outside (R2).
    let outer: Double

    static let northScale = Geo.earthRadius * .pi / 180

    init(_ region: CircularRegion, defaultHysteresis: Double) {
        self.region = region
        eastScale = Self.northScale * cos(region.latitude * .pi / 180)
        outer = region.radius + (region.hysteresis ?? defaultHysteresis)
    }

    /// Where a position is on this region's plane (the short way round the antimeridian).
    func plane(latitude: Double, longitude: Double) -> PlanePoint {
        var east = longitude - region.longitude
        if east > 180 { east -= 360 } else if east < -180 { east += 360 }
        return PlanePoint(x: east * eastScale, y: (latitude - region.latitude) * Self.northScale)
    }

    /// What a fix decides (R1–R3): inside when its whole uncertainty circle is within the
    /// radius, outside when it is wholly beyond radius plus hysteresis, else nothing. The
    /// box test first: a fix whose east or north distance alone puts it outside needs no
    /// distance.
    func decision(at point: PlanePoint, accuracy: Double) -> RegionState? {
        if abs(point.x) - accuracy > outer || abs(point.y) - accuracy > outer { return .outside }
        let distance = point.length
        if distance + accuracy <= region.radius { return .inside }
        if distance - accuracy > outer { return .outside }
        return nil
    }

    /// Where along the segment `p`→`q` (0 at `p`, 1 at `q`) it enters and leaves the
    /// circle of the radius, or nil when the line misses it (R5). The box test first: a
    /// segment wholly to one side of the circle's box needs no more.
    func crossing(_ p: PlanePoint, _ q: PlanePoint) -> (entry: Double, exit: Double, closest: Double)? {
        let r = region.radius
        if (p.x > r && q.x > r) || (p.x < -r && q.x < -r) || (p.y > r && q.y > r) || (p.y < -r && q.y < -r) { return nil }
        let dx = q.x - p.x, dy = q.y - p.y
        let a = dx * dx + dy * dy
        guard a > 0 else { return nil }
        let b = 2 * (p.x * dx + p.y * dy)
        let c = p.x * p.x + p.y * p.y - r * r
        let discriminant = b * b - 4 * a * c
        guard discriminant >= 0 else { return nil }
        let root = discriminant.squareRoot()
        let nearest = min(1, max(0, -b / (2 * a)))
        let closest = PlanePoint(x: p.x + nearest * dx, y: p.y + nearest * dy).length
        return ((-b - root) / (2 * a), (-b + root) / (2 * a), closest)
    }

    /// The transitions `fix` decides, each with where along the move from `previous` it
    /// happened (0...1), in order.
    mutating func evaluate(_ fix: LocationFix, after previous: LocationFix?) -> [(RegionTransitionKind, Double)] {
        let q = plane(latitude: fix.latitude, longitude: fix.longitude)
        let decided = decision(at: q, accuracy: fix.horizontalAccuracy)
        var out: [(RegionTransitionKind, Double)] = []
        switch (state, decided) {
        case (.unknown, let now?):
            // R4: the first determination is a state, not an event.
            state = now
            if now == .inside { beginStay(fix.time) }
            if region.notifyInitialState { out.append((.state(now), 1)) }
        case (.outside, .inside):
            state = .inside
            beginStay(fix.time)
            if region.notifyOnEntry { out.append((.enter, along(previous, q)?.entry ?? 1)) }
        case (.inside, .outside):
            state = .outside
            insideSince = nil
            if region.notifyOnExit { out.append((.exit, along(previous, q)?.exit ?? 1)) }
        case (.outside, .outside):
            // R5: a jump that passed through the region still crossed it, both ways.
            guard let previous, let pass = along(previous, q),
                pass.closest + max(previous.horizontalAccuracy, fix.horizontalAccuracy) <= region.radius,
                pass.entry >= 0, pass.exit <= 1
            else { break }
            if region.notifyOnEntry { out.append((.enter, pass.entry)) }
            if region.notifyOnExit { out.append((.exit, pass.exit)) }
        default:
            break
        }
        if state == .inside, let delay = region.loiteringDelay, !dwelt, let since = insideSince,
            let stayed = fix.time.nanoseconds(since: since), Double(stayed) >= delay * 1e9
        {
            // R6: dwell once per stay, at the first fix the delay has passed.
            dwelt = true
            out.append((.dwell, 1))
        }
        return out
    }

    private mutating func beginStay(_ time: Timestamp) {
        insideSince = time
        dwelt = false
    }

    private func along(_ previous: LocationFix?, _ q: PlanePoint) -> (entry: Double, exit: Double, closest: Double)? {
        guard let previous else { return nil }
        let p = plane(latitude: previous.latitude, longitude: previous.longitude)
        // Ends more than half the world apart east-west on this plane straddle the meridian
        // opposite the centre: the move went round the far side of the earth, not through here.
        guard abs(p.x - q.x) <= 180 * eastScale else { return nil }
        guard let pass = crossing(p, q) else { return nil }
        return (min(1, max(0, pass.entry)), min(1, max(0, pass.exit)), pass.closest)
    }
}
