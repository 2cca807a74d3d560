#!/usr/bin/env python3
"""Measures sextantd's resident memory while many app clients each hold a partial line,
and after they close (issue 9 point 8).

    Tools/bench/measure-connection-memory.py [--sextantd PATH] [--clients N] [--line-bytes B]

Starts a private daemon (--max-clients N, descriptor limit raised to fit), opens N app
connections that each send B bytes of an unfinished line, then closes them all, and
prints VmRSS at start, while held, and after the closes (once within 10 MiB of the start,
or after --wait seconds).
"""
import argparse, os, resource, socket, subprocess, sys, tempfile, time

import fresh_binary  # beside this script: refuses a stale sextantd


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def wait_for(path, process, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"sextantd exited: {process.stderr.read().decode()}")
        try:
            probe = socket.socket(socket.AF_UNIX)
            probe.connect(path)
            probe.close()
            return
        except OSError:
            time.sleep(0.02)  # the socket is not there yet
    sys.exit(f"{path} did not appear")


def status(control_path):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(control_path)
        s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n')
        data = b""
        while not data.endswith(b"\n"):
            data += s.recv(65536)
        return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sextantd", default=os.path.join(os.path.dirname(__file__), "../../.build/debug/sextantd"))
    parser.add_argument("--clients", type=int, default=3000)
    parser.add_argument("--line-bytes", type=int, default=65535)
    parser.add_argument("--no-cap", action="store_true", help="for a sextantd without --max-clients")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds to let the daemon read the partial lines")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds to watch the resident set fall after the closes")
    args = parser.parse_args()

    resource.setrlimit(resource.RLIMIT_NOFILE, (args.clients + 1000, args.clients + 1000))
    base = tempfile.mkdtemp(prefix="sextant-rss-")
    run, state = os.path.join(base, "run"), os.path.join(base, "state")
    daemon = subprocess.Popen(
        [fresh_binary.program(os.path.dirname(args.sextantd), os.path.basename(args.sextantd)), "--runtime-dir", run, "--state-dir", state, "--no-gpsd", "--no-iio"]
        + ([] if args.no_cap else ["--max-clients", str(args.clients)]),
        stderr=subprocess.PIPE)
    app_path, control_path = os.path.join(run, "app.sock"), os.path.join(run, "control.sock")
    try:
        wait_for(control_path, daemon)
        wait_for(app_path, daemon)
        status(control_path)
        idle = rss_kib(daemon.pid)
        partial = b'{"jsonrpc":"2.0","id":1,"method":"hello","params":{"app":"' + b"x" * args.line_bytes
        partial = partial[: args.line_bytes]
        clients = []
        for _ in range(args.clients):
            c = socket.socket(socket.AF_UNIX)
            c.connect(app_path)
            c.sendall(partial)
            clients.append(c)
        status(control_path)  # every line so far has been read by the time this answers
        time.sleep(args.settle)  # and the reads of the partial lines are done
        held = rss_kib(daemon.pid)
        for c in clients:
            c.close()
        closed = time.monotonic()
        # The daemon trims its heap once the closes have stopped for a second: watch the
        # resident set for up to `--wait` seconds.
        after = rss_kib(daemon.pid)
        while time.monotonic() - closed < args.wait and after > idle + 10 * 1024:
            time.sleep(0.25)
            after = rss_kib(daemon.pid)
        status(control_path)
        print(f"clients {args.clients} x {args.line_bytes} B: RSS idle {idle // 1024} MiB, "
              f"held {held // 1024} MiB, after close {after // 1024} MiB "
              f"({time.monotonic() - closed:.1f} s after the clients closed)")
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    main()
