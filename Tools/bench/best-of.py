#!/usr/bin/env python3
"""Runs a command RUNS times and prints "SECONDS PEAK_KB CPU_SECONDS" of its fastest run.

    best-of.py RUNS WORK_DIR STDIN_PATH NAME COMMAND...

Standard input from STDIN_PATH, output in WORK_DIR/out and WORK_DIR/err. The wall time is
taken here around the run, to the tenth of a millisecond (/usr/bin/time's %e has 10 ms
steps: 8 % of a 0.13 s decode); the CPU time (user + system) is wait4(2)'s. The peak
resident set is /usr/bin/time's, which the command runs under: a child spawned from this
interpreter would count the interpreter's own pages in its peak (exec(2) keeps the high
water mark of the memory it replaces). A failed run ends it, naming NAME.
"""
import os
import sys
import time


def main():
    runs, work, stdin_path, name, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    best = None
    for _ in range(runs):
        with open(stdin_path, "rb") as i, open(f"{work}/out", "wb") as o, open(f"{work}/err", "wb") as e:
            streams = [(os.POSIX_SPAWN_DUP2, f.fileno(), n) for n, f in enumerate((i, o, e))]
            started = time.perf_counter()
            timed = ["/usr/bin/time", "-f", "%M", "-o", f"{work}/peak"] + argv
            pid = os.posix_spawn(timed[0], timed, os.environ, file_actions=streams)
            _, status, usage = os.wait4(pid, 0)
            elapsed = time.perf_counter() - started
        if status != 0:
            with open(f"{work}/err") as err:
                sys.exit(f"{name}: failed: {' '.join(argv)}\n{err.read()}")
        if best is None or elapsed < best[0]:
            with open(f"{work}/peak") as peak:
                best = (elapsed, int(peak.read().split()[-1]), usage.ru_utime + usage.ru_stime)
    print(f"{best[0]:.4f} {best[1]} {best[2]:.3f}")


if __name__ == "__main__":
    main()
