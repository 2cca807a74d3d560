#!/usr/bin/env python3
"""Builds Sextant's offline time-zone boundary table from tzfpy's polygons.

Usage: Tools/dev/tz/make-tz-table.py [--out Traces/tz/zones.sxtz]
       Tools/dev/tz/make-tz-table.py --test-regions --out Traces/tz/test-regions.sxtz
       Tools/dev/tz/make-tz-table.py --points Traces/tz/border-points.tsv   (the tests' expected answers)

Needs tzfpy 2.1.1 (PyPI; MIT code, data ODbL-1.0 from tzf-dist, built from
timezone-boundary-builder): Tools/dev/tz/setup-venv.sh makes a venv with it.

tz_poly.py takes tzfpy's borders (its polygons' edges whose two sides tzfpy answers
differently), simplifies them and cuts them at the 0.25° cells' edges; tz_format.py writes
them as format version 5. docs/timezone.md describes the format and the error bound;
ZoneTable.swift reads it.
"""
import argparse
import sys
import time
import zlib

import tzfpy

import border_points
import tz_format
import tz_poly


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="Traces/tz/zones.sxtz")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--test-regions", action="store_true",
                        help="only the cells round the border points (the tests' table)")
    parser.add_argument("--points", help="write the border points and tzfpy's answers there")
    args = parser.parse_args()
    if args.points:
        border_points.write(args.points)
        return
    started = time.process_time()
    regions = list(border_points.REGIONS.values()) if args.test_regions else None
    grid = tz_poly.build(regions)
    table, counts = tz_format.encode(grid, tz_poly.LAND_TOLERANCE_M, tz_poly.SEA_TOLERANCE_M, tzfpy.data_version())
    with open(args.out, "wb") as out:
        out.write(table)
    if not args.quiet:
        print(f"{args.out}: {len(table)} bytes ({len(zlib.compress(table, 9))} zlib), "
              f"{counts['zones']} zones, {counts['runs']} runs, {counts['refined']} refined cells, "
              f"{counts['blob']} bytes of cells, data {tzfpy.data_version()}, "
              f"{time.process_time() - started:.0f} s CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
