#!/usr/bin/env python3
"""Builds Sextant's offline time-zone boundary table from tzfpy's answers.

Usage: Tools/dev/tz/make-tz-table.py [--out Traces/tz/zones.sxtz] [--cache DIR] [--bands I/N]
       Tools/dev/tz/make-tz-table.py --test-regions --out Traces/tz/test-regions.sxtz
       Tools/dev/tz/make-tz-table.py --points Traces/tz/border-points.tsv   (the tests' expected answers)

Needs tzfpy 2.1.1 (PyPI; MIT code, data ODbL-1.0 from tzf-dist, built from
timezone-boundary-builder): Tools/dev/tz/setup-venv.sh makes a venv with it.

tz_sample.py samples tzfpy into a quadtree per 0.25° cell (chord leaves where a straight line
follows the border within the tolerance; down to `land_depth` between land zones and
`sea_depth` at the sea's edge); tz_format.py writes the trees as format version 4. With
--cache, the sampled trees are kept per band of 20 rows (a pickle each), so that the encoding
can change without resampling and `--bands I/N` can sample a share of the bands in parallel.
docs/timezone.md describes the format and the error bound; ZoneTable.swift reads it.
"""
import argparse
import os
import pickle
import sys
import time
import zlib

import tzfpy

import border_points
import tz_format
import tz_sample

BAND_ROWS = 20


def in_regions(col, row, regions):
    per = tz_sample.CELLS_PER_DEGREE
    lon, lat = -180 + (col + 0.5) / per, -90 + (row + 0.5) / per
    return regions is None or any(w <= lon <= e and s <= lat <= n for w, s, e, n in regions)


def sample_band(sampler, band, regions):
    rows = range(band * BAND_ROWS, (band + 1) * BAND_ROWS)
    return [[sampler.cell(col, row) if in_regions(col, row, regions) else None
             for col in range(tz_sample.COLS)] for row in rows]


def band_path(cache, sampler, band):
    tag = f"l{sampler.land_depth}s{sampler.sea_depth}t{tz_sample.LAND_TOLERANCE_M}-{tz_sample.SEA_TOLERANCE_M}e"
    return os.path.join(cache, f"{tag}-band{band:03d}.pickle")


def sample(sampler, regions, cache, share, progress):
    grid, started = [], time.process_time()
    for band in range(tz_sample.ROWS // BAND_ROWS):
        path = cache and band_path(cache, sampler, band)
        if path and os.path.exists(path):
            with open(path, "rb") as f:
                grid += pickle.load(f)
            continue
        if share == "cached" or share and band % share[1] != share[0]:
            grid += [[None] * tz_sample.COLS for _ in range(BAND_ROWS)]
            continue
        rows = sample_band(sampler, band, regions)
        if path:
            with open(path + ".part", "wb") as f:
                pickle.dump(rows, f)
            os.replace(path + ".part", path)
        grid += rows
        if progress:
            print(f"band {band}: {sampler.lookups} lookups, {time.process_time() - started:.0f} s CPU, "
                  f"{sampler.odd_nautical} odd nautical answers", file=sys.stderr, flush=True)
    return grid


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--land-depth", type=int, default=6)
    parser.add_argument("--sea-depth", type=int, default=3)
    parser.add_argument("--out", default="Traces/tz/zones.sxtz")
    parser.add_argument("--cache", help="a directory for the sampled bands (outside the repository)")
    parser.add_argument("--bands", help="I/N: sample only bands I mod N (into --cache), write no table")
    parser.add_argument("--cached-only", action="store_true",
                        help="encode the bands in --cache only (the others absent): a partial table, to measure")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--test-regions", action="store_true",
                        help="only the cells round the border points (the tests' table)")
    parser.add_argument("--points", help="write the border points and tzfpy's answers there")
    args = parser.parse_args()
    if args.points:
        border_points.write(args.points)
        return
    sampler = tz_sample.Sampler(args.land_depth, args.sea_depth)
    regions = border_points.REGIONS.values() if args.test_regions else None
    share = tuple(int(v) for v in args.bands.split("/")) if args.bands else None
    if args.cached_only:
        share = "cached"
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
    grid = sample(sampler, regions, args.cache, share, not args.quiet)
    if share and share != "cached":
        return
    table, counts = tz_format.encode(sampler, grid, tz_sample.LAND_TOLERANCE_M, tz_sample.SEA_TOLERANCE_M,
                                     tzfpy.data_version())
    with open(args.out, "wb") as out:
        out.write(table)
    print(f"{args.out}: {len(table)} bytes ({len(zlib.compress(table, 9))} zlib), "
          f"{len(sampler.zones)} zones, {counts['runs']} runs, {counts['refined']} refined cells, "
          f"{counts['blob']} bytes of cells, {sampler.lookups} tzfpy lookups, data {tzfpy.data_version()}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
