"""The points SextantCoreTests checks the table at, with tzfpy's answers (the expected ones).

Each pair straddles a border. The crossing is found by bisection along the segment between
them; then, on each side, the nearest point along the segment whose ring of radius
CLEARANCE_M (RING directions) all gives that side's zone: a point at least that far from any
border in tzfpy's data. Also RANDOM_PER_REGION random points per region with the same
clearance, and the pairs' own ends.

The sea's edge (territorial waters against Etc/GMT±N) is held to a looser bound than a land
border (docs/timezone.md, Z1): a pair whose crossing is at the sea's edge has its near
points SEA_CLEARANCE_M from it, and a random point within SEA_CLEARANCE_M of a sea edge is
not drawn. The last column says which bound a point was chosen by.
"""
import math
import random

import tzfpy

CLEARANCE_M = 100
SEA_CLEARANCE_M = 5000
SEA_RINGS_M = (250, 500, 1000, 2000, 3500, 5000)
RING = 32
RANDOM_PER_REGION = 150
METRES_PER_DEGREE = 111_320

# West, south, east, north: the cells a test table covers.
REGIONS = {
    "iberia": (-7.5, 38.5, -6.5, 39.25),
    "indiana": (-88.0, 37.75, -86.0, 41.5),
    "arizona": (-111.75, 35.5, -109.75, 37.25),
    "diomede": (-169.25, 65.5, -168.75, 66.0),
    "samoa": (-172.0, -14.5, -170.5, -13.5),
    "kiritimati": (-157.75, 1.5, -157.0, 2.25),
    "wakhan": (74.0, 36.75, 75.25, 37.5),
    "fiji-east": (179.5, -17.0, 180.0, -16.5),
    "fiji-west": (-180.0, -17.0, -179.5, -16.5),
    "atlantic": (-37.75, 29.75, -37.25, 30.25),
}

# name: (lon, lat) of one end, (lon, lat) of the other.
PAIRS = {
    "elvas-badajoz": ((-7.1631, 38.8810), (-6.9707, 38.8786)),
    "knox-plymouth": ((-86.6250, 41.2959), (-86.3097, 41.3434)),
    "vincennes-evansville": ((-87.5286, 38.6773), (-87.5711, 37.9748)),
    "tellcity-jasper": ((-86.7675, 37.9514), (-86.9311, 38.3914)),
    "winamac-rensselaer": ((-86.6031, 41.0514), (-87.1508, 40.9367)),
    "page-kayenta": ((-111.4558, 36.9147), (-110.2557, 36.7278)),
    "kayenta-secondmesa": ((-110.2557, 36.7278), (-110.5, 35.8)),
    "tubacity-flagstaff": ((-111.2399, 36.1350), (-111.6513, 35.5)),
    "bigdiomede-littlediomede": ((-169.06, 65.78), (-168.93, 65.75)),
    "apia-pagopago": ((-171.76, -13.83), (-170.70, -14.28)),
    "kiritimati-sea": ((-157.40, 1.87), (-157.05, 2.2)),
    "wakhan-china": ((74.3, 37.05), (74.8, 37.2)),
    "fiji-antimeridian": ((179.9, -16.8), (-179.9, -16.8)),
    "atlantic-meridian": ((-37.7, 30.0), (-37.3, 30.0)),
}

# name: (lon, lat): places over the world, for the world table (kind "world"), and
# WORLD_RANDOM points drawn over the globe (kind "world-random"); the test table does not
# cover them.
WORLD = {
    "lisbon": (-9.14, 38.72), "madrid": (-3.70, 40.42), "paris": (2.35, 48.86),
    "indianapolis": (-86.16, 39.77), "phoenix": (-112.07, 33.45), "window-rock": (-109.05, 35.67),
    "kabul": (69.17, 34.53), "kashgar": (75.99, 39.47), "sydney": (151.21, -33.87),
    "ship-north-pacific": (-150.0, 30.0), "ship-south-atlantic": (-20.0, -40.0),
    "ship-indian-ocean": (80.0, -30.0), "ship-dateline-east": (179.8, 5.0),
    "ship-dateline-west": (-179.8, 5.0), "ship-arctic": (0.0, 87.0),
    # 100-400 m from a land border in cells whose 5 x 5 lattice saw one zone (what format 4's
    # sampled cells needed an edge check for).
    "edge-bahia-araguaina": (-46.228943, -12.527113), "edge-china-hovd": (87.991514, 48.609397),
    "edge-caprivi": (24.706681, -17.498739), "edge-hudson-bay": (-77.729882, 59.401161),
    "edge-chile-bolivia": (-68.762118, -20.090921),
}
WORLD_RANDOM = 300


def zone(lon, lat):
    return tzfpy.get_tz(wrap(lon), lat)


def wrap(lon):
    return (lon + 180) % 360 - 180


def offset(lon, lat, east_m, north_m):
    return (wrap(lon + east_m / (METRES_PER_DEGREE * math.cos(math.radians(lat)))),
            lat + north_m / METRES_PER_DEGREE)


def is_sea(zone_id):
    return not zone_id or zone_id.startswith("Etc/GMT")


def near_sea_edge(lon, lat):
    """Whether a ring within SEA_CLEARANCE_M meets both the sea and a land zone."""
    for r in SEA_RINGS_M:
        zones = {zone(lon, lat)} | {zone(*offset(lon, lat, r * math.cos(a), r * math.sin(a)))
                                    for a in (2 * math.pi * k / RING for k in range(RING))}
        if any(map(is_sea, zones)) and not all(map(is_sea, zones)):
            return True
    return False


def clear(lon, lat, radius_m=CLEARANCE_M):
    here = zone(lon, lat)
    for k in range(RING):
        a = 2 * math.pi * k / RING
        if zone(*offset(lon, lat, radius_m * math.cos(a), radius_m * math.sin(a))) != here:
            return False
    return True


def lerp(a, b, f):
    # The short way round the antimeridian.
    dlon = wrap(b[0] - a[0])
    return wrap(a[0] + dlon * f), a[1] + (b[1] - a[1]) * f


def crossing(a, b):
    """The fraction along a→b where the zone first changes from a's (bisection to ~1 mm)."""
    za, lo, hi = zone(*a), 0.0, 1.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if zone(*lerp(a, b, mid)) == za:
            lo = mid
        else:
            hi = mid
    return lo


def segment_length_m(a, b):
    mean_lat = math.radians((a[1] + b[1]) / 2)
    return math.hypot(wrap(b[0] - a[0]) * math.cos(mean_lat), b[1] - a[1]) * METRES_PER_DEGREE


def clear_point_beside(a, b, at, direction, clearance_m):
    """Stepping 10 m at a time from the crossing at fraction `at`, the first clear point."""
    step = 10 / segment_length_m(a, b)
    f = at + direction * step * (clearance_m // 10)
    while 0 <= f <= 1:
        point = lerp(a, b, f)
        if clear(*point, clearance_m):
            return point, abs(f - at) * segment_length_m(a, b)
        f += direction * step
    return None, None


def pair_rows(name, a, b):
    rows = [(name, "end-a", *a, zone(*a), "", "end"), (name, "end-b", *b, zone(*b), "", "end")]
    if zone(*a) == zone(*b):
        return rows
    at = crossing(a, b)
    step = 1 / segment_length_m(a, b)
    sides = {zone(*lerp(a, b, at - step)), zone(*lerp(a, b, at + step))}
    bound = "sea" if any(map(is_sea, sides)) and not all(map(is_sea, sides)) else "land"
    for side, direction in (("near-a", -1), ("near-b", 1)):
        point, along = clear_point_beside(a, b, at, direction, SEA_CLEARANCE_M if bound == "sea" else CLEARANCE_M)
        if point:
            rows.append((name, side, *point, zone(*point), f"{along:.0f}", bound))
    return rows


def random_rows(name, region, rng):
    w, s, e, n = region
    rows = []
    while len(rows) < RANDOM_PER_REGION:
        lon, lat = rng.uniform(w, e), rng.uniform(s, n)
        if clear(lon, lat) and not near_sea_edge(lon, lat):
            rows.append((name, "random", lon, lat, zone(lon, lat), "", "land"))
    return rows


def world_rows(rng):
    rows = []
    for name, (lon, lat) in WORLD.items():
        assert clear(lon, lat) and not near_sea_edge(lon, lat), f"{name} is near a border"
        rows.append((name, "world", lon, lat, zone(lon, lat), "", "land"))
    while len(rows) < len(WORLD) + WORLD_RANDOM:
        lon, lat = rng.uniform(-180, 180), math.degrees(math.asin(rng.uniform(-1, 1)))
        if clear(lon, lat) and not near_sea_edge(lon, lat):
            rows.append(("globe", "world-random", lon, lat, zone(lon, lat), "", "land"))
    return rows


def write(path):
    rng = random.Random(41)
    rows = []
    for name, (a, b) in PAIRS.items():
        rows += pair_rows(name, a, b)
    for name, region in REGIONS.items():
        rows += random_rows(name, region, rng)
    rows += world_rows(random.Random(42))
    with open(path, "w", encoding="ascii") as out:
        out.write(f"# tzfpy {tzfpy.data_version()} answers, written by Tools/dev/tz/make-tz-table.py "
                  f"--points; clearance {CLEARANCE_M} m from a land border, {SEA_CLEARANCE_M} m from the sea's edge.\n")
        out.write("# pair\tkind\tlongitude\tlatitude\tzone\tmetres from the crossing\tbound (land, sea, end)\n")
        for name, kind, lon, lat, z, along, bound in rows:
            out.write(f"{name}\t{kind}\t{lon:.7f}\t{lat:.7f}\t{z}\t{along}\t{bound}\n")
