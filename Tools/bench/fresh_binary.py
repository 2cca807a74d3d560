#!/usr/bin/python3
"""A benchmark's program from a build directory, refused when it is older than its build.

`swift build -c release --product sextant` relinks the multi-call `sextant` only: a
`sextantd` or `sextantctl` beside it that was a hard link to the previous `sextant` keeps
that previous file (the linker writes a new one), and a benchmark that starts it measures
yesterday's code. So every benchmark that starts BIN_DIR/sextantd or BIN_DIR/sextantctl
takes its path from `program`, which ends the script, naming both files, when the program is
stale:

- it is the same file as BIN_DIR/sextant (a hard link made afresh): current;
- SwiftPM linked it as a product of its own (BIN_DIR/NAME.product/Objects.LinkFileList, the
  objects it was linked from, is there): stale when one of those objects is newer than it.
  A plain `sextant` newer than it is no sign here: a debug build links `sextant` and
  `sextantd` separately, seconds apart, and an incremental build relinks only the programs
  whose objects changed (an edit of the panel relinks `sextant`, not `sextantd`);
- otherwise (a link or copy made by hand): stale when BIN_DIR/sextant is another file and
  newer than it.

Imported by the Python benchmarks; the shell ones run it:
    python3 Tools/bench/fresh_binary.py BIN_DIR NAME...    (prints nothing, exits 1 if stale)
Its name has no bench- prefix: Tools/bench/bench-smoke.sh does not take it for a benchmark.
"""

import os
import sys

MULTI_CALL = "sextant"


def _objects(bin_dir, name):
    """The object files SwiftPM linked BIN_DIR/NAME from, as paths in this build directory
    (the list holds the paths of the build that wrote it, which may be another checkout's
    mount of it: each is taken from its configuration folder on). None if not a product."""
    listing = os.path.join(bin_dir, f"{name}.product", "Objects.LinkFileList")
    try:
        with open(listing) as f:
            lines = [line.strip().strip("'\"") for line in f if line.strip()]
    except FileNotFoundError:
        return None
    here, config = os.path.realpath(bin_dir), os.path.basename(os.path.realpath(bin_dir))
    objects = []
    for line in lines:
        parts = line.split("/")
        if config in parts:
            at = len(parts) - 1 - parts[::-1].index(config)
            objects.append(os.path.join(here, *parts[at + 1:]))
    return objects


def stale_reason(bin_dir, name):
    """Why BIN_DIR/NAME is older than what it was built from, or None if it is not."""
    path, multi = os.path.join(bin_dir, name), os.path.join(bin_dir, MULTI_CALL)
    if not os.path.exists(path):
        return f"{path} does not exist (build it, or link it to the multi-call program: ln -f {multi} {path})"
    if name == MULTI_CALL or (os.path.exists(multi) and os.path.samefile(path, multi)):
        return None
    built = os.stat(path).st_mtime_ns
    objects = _objects(bin_dir, name)
    if objects is not None:
        newer = [o for o in objects if os.path.exists(o) and os.stat(o).st_mtime_ns > built]
        if not newer:
            return None
        return (f"{path} is older than {len(newer)} of the objects it is linked from (e.g. {newer[0]}): a build "
                f"relinked others but not it" + (f"; {multi} is newer" if os.path.exists(multi) and os.stat(multi).st_mtime_ns > built else "")
                + f". Build it (swift build --product {name}) or link it afresh: ln -f {multi} {path}")
    if os.path.exists(multi) and os.stat(multi).st_mtime_ns > built:
        return (f"{path} is not {multi} (another file) and is older than it: a stale link left by an earlier build "
                f"(`swift build --product {MULTI_CALL}` relinks only {multi}). Link it afresh: ln -f {multi} {path}")
    return None


def program(bin_dir, name):
    """The path of BIN_DIR/NAME to run; ends the script with the reason if it is stale."""
    reason = stale_reason(bin_dir, name)
    if reason:
        sys.exit(f"{os.path.basename(sys.argv[0])}: refusing to measure a stale program: {reason}")
    return os.path.join(bin_dir, name)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: fresh_binary.py BIN_DIR NAME...")
    for program_name in sys.argv[2:]:
        program(sys.argv[1], program_name)
