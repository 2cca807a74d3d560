#!/usr/bin/env python3
"""Writes Traces/demo-walk.jsonl: a 90 s walk across the Champ de Mars, Paris.

Locations at 1 Hz (walking pace, realistic accuracy), accelerometer at 25 Hz: the phone is
held upright in portrait, turned to landscape at t=40 s and back at t=70 s. Deterministic
(seeded noise), so the file is reproducible: python3 Tools/dev/make-demo-trace.py > Traces/demo-walk.jsonl
"""
import json
import math
import random

rng = random.Random(42)
waypoints = [(48.85584, 2.29830), (48.85700, 2.29640), (48.85800, 2.29480), (48.85837, 2.29448)]
speed = 1.4  # m/s
R = 6371008.8


def distance(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def bearing(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dl = math.radians(b[1] - a[1])
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(y, x)) + 360) % 360


def position(d):
    for a, b in zip(waypoints, waypoints[1:]):
        leg = distance(a, b)
        if d <= leg:
            f = d / leg
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f), bearing(a, b)
        d -= leg
    return waypoints[-1], bearing(waypoints[-2], waypoints[-1])


def gravity(t):
    """Upright portrait, turned to landscapeLeft over 0.4 s at 40 s and back at 70 s."""
    g = 9.80665

    def turn(t0):
        return min(1.0, max(0.0, (t - t0) / 0.4))

    angle = (turn(40.0) - turn(70.0)) * math.pi / 2  # 0 portrait, pi/2 landscapeLeft (+x)
    return g * math.sin(angle), g * math.cos(angle), 0.3


samples = []
duration = 90.0
for i in range(int(duration) + 1):
    t = float(i)
    (lat, lon), course = position(speed * t)
    samples.append((t, {"location": {
        "lat": round(lat + rng.gauss(0, 0.000008), 7), "lon": round(lon + rng.gauss(0, 0.000008), 7),
        "alt": round(35 + rng.gauss(0, 0.4), 1), "hAcc": round(4 + abs(rng.gauss(0, 1.5)), 1), "vAcc": 6.0,
        "speed": round(speed + rng.gauss(0, 0.1), 2), "course": round(course, 1)}}))
for i in range(int(duration * 25) + 1):
    t = i / 25
    x, y, z = gravity(t)
    samples.append((t, {"accel": {"x": round(x + rng.gauss(0, 0.15), 3), "y": round(y + rng.gauss(0, 0.15), 3),
                                  "z": round(z + rng.gauss(0, 0.15), 3)}}))
samples.sort(key=lambda s: (s[0], "accel" in s[1]))

print(json.dumps({"sextant": "trace", "version": 1, "start": "2026-03-01T08:00:00.000Z", "profile": "phone"}, separators=(",", ":")))
print("# A walk across the Champ de Mars; phone turned to landscape at 40 s, back to portrait at 70 s.")
for t, body in samples:
    print(json.dumps({"t": round(t, 3), **body}, separators=(",", ":")))
