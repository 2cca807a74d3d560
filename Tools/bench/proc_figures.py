"""What the benchmark scripts read of a process from /proc: its memory (smaps_rollup,
status) and its CPU time."""

import os

TICKS = os.sysconf("SC_CLK_TCK")


def status_kb(pid, field):
    """A kB figure of /proc/PID/status (VmRSS, Threads' count)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def rollup_kb(pid):
    """Every kB figure of /proc/PID/smaps_rollup (Rss, Pss, Private_Dirty, Anonymous...)."""
    figures = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                figures[parts[0].rstrip(":")] = int(parts[1])
    return figures


def cpu_seconds(pid):
    """User and system CPU time the process has used, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def machine_ticks():
    """(busy, all) CPU ticks of the whole machine so far, every core (/proc/stat's first line;
    idle and iowait are not busy)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return sum(fields) - fields[3] - fields[4], sum(fields)


def busy_cores(before, after):
    """How many cores were busy on average between two machine_ticks() readings."""
    total = after[1] - before[1]
    return (after[0] - before[0]) / total * os.cpu_count() if total else float("nan")
