#!/usr/bin/python3
"""Writes the panel's offline base map: coastlines, lakes and national borders as GeoJSON.

Reads GSHHG's binned netCDF files as Debian's gmt-gshhg-low installs them
(/usr/share/gmt-gshhg/binned_GSHHS_l.nc, binned_border_l.nc; LGPL-3+, by Paul Wessel and
Walter H. F. Smith) with Debian's python3-netcdf4, and writes one GeoJSON
FeatureCollection of MultiLineStrings (`kind`: coast, lake, border) that sextant-panel
serves as /basemap.geojson (its --basemap). The output is derived data: made at setup, never
kept in the repository.

In the binned format the world is cut into square bins (10 degrees at the low resolution),
numbered west to east from the north pole down; each bin holds segments of polygons clipped
to it, each point an unsigned 16-bit offset from the bin's south-west corner in 1/65535 of
the bin's side.

Usage: Tools/dev/make-basemap.py [--resolution l] [--gshhg /usr/share/gmt-gshhg] OUTPUT
"""

import argparse
import json
import os
import sys

# GSHHS levels kept: 1 the land's shore, 2 lakes, 5 Antarctica's ice front (6, its
# grounding line, would draw the continent twice).
COAST_LEVELS = {1: "coast", 2: "lake", 5: "coast"}
# Border levels kept: 1 national boundaries (2 is internal, 3 maritime).
BORDER_LEVELS = {1: "border"}


def scalar(variables, name):
    return int(variables[name][:][0])


def bin_corners(variables):
    """The south-west corner (lon, lat) of each bin, and the bin's side in degrees."""
    side = scalar(variables, "Bin_size_in_minutes") / 60.0
    columns = scalar(variables, "N_bins_in_360_longitude_range")
    count = scalar(variables, "N_bins_in_file")
    return [((b % columns) * side, 90.0 - (b // columns + 1) * side) for b in range(count)], side


def segments(variables, counts_and_levels):
    """Yields (level, [[lon, lat], ...]) for every segment of every bin."""
    corners, side = bin_corners(variables)
    scale = side / 65535.0
    first_segment = variables["Id_of_first_segment_in_a_bin"][:]
    segments_in_bin = variables["N_segments_in_a_bin"][:]
    first_point = variables["Id_of_first_point_in_a_segment"][:]
    dx = variables["Relative_longitude_from_SW_corner_of_bin"][:].astype("int64") & 0xFFFF
    dy = variables["Relative_latitude_from_SW_corner_of_bin"][:].astype("int64") & 0xFFFF
    counts, levels = counts_and_levels
    for b, (west, south) in enumerate(corners):
        for s in range(int(first_segment[b]), int(first_segment[b]) + int(segments_in_bin[b])):
            start, n = int(first_point[s]), int(counts[s])
            line = []
            for i in range(start, start + n):
                lon = west + int(dx[i]) * scale
                line.append([round(lon - 360.0 if lon > 180.0 else lon, 4), round(south + int(dy[i]) * scale, 4)])
            if len(line) > 1:
                yield int(levels[s]), line


def coast_fields(variables):
    info = variables["Embedded_npts_levels_exit_entry_for_a_segment"][:].astype("int64")
    return info >> 9, (info >> 6) & 7


def border_fields(variables):
    return variables["N_points_for_a_segment"][:], variables["Hierarchial_level_of_a_segment"][:]


def features(path, fields, kinds):
    import netCDF4

    with netCDF4.Dataset(path) as data:
        data.set_auto_mask(False)
        lines = {}
        for level, line in segments(data.variables, fields(data.variables)):
            kind = kinds.get(level)
            if kind:
                lines.setdefault(kind, []).append(line)
    return [{"type": "Feature", "properties": {"kind": kind}, "geometry": {"type": "MultiLineString", "coordinates": parts}}
            for kind, parts in sorted(lines.items())]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output")
    parser.add_argument("--gshhg", default="/usr/share/gmt-gshhg", help="where gmt-gshhg-low installs its files")
    parser.add_argument("--resolution", default="l", choices="cli", help="crude, low or intermediate (default low)")
    args = parser.parse_args()
    coast = os.path.join(args.gshhg, "binned_GSHHS_%s.nc" % args.resolution)
    border = os.path.join(args.gshhg, "binned_border_%s.nc" % args.resolution)
    for path in (coast, border):
        if not os.path.exists(path):
            sys.exit("make-basemap: %s is missing: apt-get install gmt-gshhg-low python3-netcdf4" % path)
    collection = {
        "type": "FeatureCollection",
        "source": "GSHHG %s (%s), LGPL-3+: Paul Wessel and Walter H. F. Smith" % (args.resolution, args.gshhg),
        "features": features(coast, coast_fields, COAST_LEVELS) + features(border, border_fields, BORDER_LEVELS),
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    partial = args.output + ".part"
    with open(partial, "w") as out:
        json.dump(collection, out, separators=(",", ":"))
    os.replace(partial, args.output)
    points = sum(len(line) for feature in collection["features"] for line in feature["geometry"]["coordinates"])
    print("make-basemap: %s: %d points, %d bytes" % (args.output, points, os.path.getsize(args.output)))


if __name__ == "__main__":
    main()
