#!/usr/bin/python3
"""What a connection costs sextant-panel before any token, and what idle pages hold.

Starts a private sextantd and a sextant-panel on it (issue 36.4), then measures:
  - a fresh connection's GET / (connect to the last byte): p50, p99 over --gets, one at a
    time: the cost of the per-peer lookup (sock_diag) and the head timer;
  - --pages WebSocket pages opened and left idle (as the page's browser: Origin, the token
    as a subprotocol): how many the panel took, its RSS before, with them open, and 3 s
    after they closed;
  - --silent connections that send nothing (the owner's uid, or --as-uid): whether a GET
    is still answered, in how long, and the panel's CPU over 2 s meanwhile.

Usage: Tools/bench/bench-panel-limits.py [--bin-dir .build/debug] [--gets 500] [--pages 1000]
                                   [--silent 1100] [--as-uid 65534] [--nofile 1024]
"""

import argparse
import base64
import importlib.util
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
sys.path.insert(0, os.path.join(ROOT, "Tools", "bench"))
from proc_figures import cpu_seconds, status_kb  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_fanout", os.path.join(ROOT, "Tools", "bench", "bench-fanout.py"))
fanout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fanout)


def start_panel(bin_dir, runtime, work, nofile):
    command = f'ulimit -n {nofile} && exec "$0" "$@"'
    panel = subprocess.Popen(["/bin/sh", "-c", command, os.path.join(bin_dir, "sextant-panel"), "--runtime-dir", runtime,
                              "--assets", os.path.join(ROOT, "web", "panel"), "--traces", work],
                             stdout=subprocess.PIPE, stderr=open(os.path.join(work, "panel.log"), "w"))
    line = panel.stdout.readline().decode().strip()
    found = re.match(r"http://127\.0\.0\.1:(\d+)/[#?]token=([0-9a-f]{64})$", line)
    if not found:
        sys.exit(f"sextant-panel printed {line!r}; see {work}/panel.log")
    return panel, int(found.group(1)), found.group(2)


def get(port, timeout=10.0):
    """A GET / on a fresh connection: its status and the seconds it took, or None, None."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            reply = b""
            while chunk := s.recv(65536):
                reply += chunk
    except OSError:
        return None, None
    status = int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else None
    return status, time.monotonic() - started


def open_page(port, token):
    """One page's WebSocket (the cookie for a panel from before issue 36), or None when refused."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
               f"Sec-WebSocket-Protocol: sextant-panel, sextant-token.{token}\r\nCookie: sextant-panel={token}\r\n"
               f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    reply = b""
    try:
        while b"\r\n\r\n" not in reply:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
    except OSError:
        pass
    if b" 101 " in reply.split(b"\r\n", 1)[0]:
        return s
    s.close()
    return None


def silent_holder(port, count, uid):
    script = (f"import socket, time\nheld = []\nfor _ in range({count}):\n"
              f"    try: held.append(socket.create_connection(('127.0.0.1', {port}), timeout=5))\n"
              f"    except OSError: break\nprint(len(held), flush=True)\ntime.sleep(600)\n")
    prefix = ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"] if uid is not None else []
    holder = subprocess.Popen(prefix + [sys.executable, "-c", script], stdout=subprocess.PIPE)
    held = int(holder.stdout.readline() or b"0")
    return holder, held


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--gets", type=int, default=500)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--silent", type=int, default=1100)
    parser.add_argument("--as-uid", type=int, default=65534, help="the silent connections' uid (-1: ours)")
    parser.add_argument("--nofile", type=int, default=1024, help="the panel's ulimit -n")
    parser.add_argument("--smoke", action="store_true", help="20 GETs, 70 pages, 100 silent connections (Tools/bench/bench-smoke.sh)")
    args = parser.parse_args()
    if args.smoke:
        args.gets, args.pages, args.silent = 20, 70, 100
    work = tempfile.mkdtemp(prefix="sextant-bench-panel-limits-")
    os.chmod(work, 0o755)
    runtime = os.path.join(work, "run")
    daemon = fanout.start_daemon(args.bin_dir, 0, work, runtime)
    panel = holder = None
    try:
        panel, port, token = start_panel(args.bin_dir, runtime, work, args.nofile)
        times = sorted(t * 1000 for status, t in (get(port) for _ in range(args.gets)) if status in (200, 401))
        print(f"{args.bin_dir}: GET / on a fresh connection, {len(times)} of {args.gets}: "
              f"p50 {statistics.median(times):.2f} ms, p99 {times[int(len(times) * 0.99)]:.2f} ms")
        before = status_kb(panel.pid, "VmRSS")
        pages = [p for p in (open_page(port, token) for _ in range(args.pages)) if p]
        time.sleep(2)
        held = status_kb(panel.pid, "VmRSS")
        for page in pages:
            page.close()
        time.sleep(3)
        after = status_kb(panel.pid, "VmRSS")
        print(f"{args.pages} pages asked, {len(pages)} open: RSS {before / 1024:.1f} MB before, "
              f"{held / 1024:.1f} MB with them open, {after / 1024:.1f} MB 3 s after they closed")
        holder, count = silent_holder(port, args.silent, None if args.as_uid < 0 else args.as_uid)
        status, took = get(port, timeout=15)
        cpu, clock = cpu_seconds(panel.pid), time.monotonic()
        time.sleep(2)
        used = (cpu_seconds(panel.pid) - cpu) / (time.monotonic() - clock)
        answer = f"{status} in {took * 1000:.1f} ms" if status else "no answer within 15 s"
        print(f"{count} silent connections (uid {args.as_uid}), panel ulimit -n {args.nofile}: GET / {answer}; "
              f"panel CPU {used * 100:.0f} % of a core over 2 s")
    finally:
        for process in (holder, panel, daemon):
            if process:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
