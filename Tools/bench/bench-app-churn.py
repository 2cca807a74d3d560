#!/usr/bin/python3
"""Measures what one local uid can make the daemon keep (issue 36 points 5 and 6).

Runs sextantd as root (a daemon serving several uids), then, as uid 65534 (setpriv), for
--seconds each, in bounded loops on app.sock:

1. hello churn: a fresh app id per connection, hello, close;
2. decision churn: the same with `authorization.request` under --prompt-policy allowAlways
   (each answer is a stored decision);
3. region churn: the same with `region.monitor` of 20 regions per app id.

After each, the store's size (the SQLite file and its WAL) and the daemon's resident
memory, against those before; the number of app ids and regions the daemon then holds.

Usage: Tools/bench/bench-app-churn.py [--seconds 10] [--bin-dir .build/debug]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from proc_figures import status_kb
import fresh_binary  # beside this script: refuses a stale sextantd or sextantctl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/

CHURN = r'''
import json, socket, sys, time
path, kind, seconds, prefix = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
def call(sock, buf, ident, method, params):
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n").encode())
    while True:
        while b"\n" in buf[0]:
            line, buf[0] = buf[0].split(b"\n", 1)
            message = json.loads(line)
            if message.get("id") == ident:
                return message
        data = sock.recv(65536)
        if not data:
            raise SystemExit("closed")
        buf[0] += data
done = refused = 0
codes = {}
end = time.monotonic() + seconds
while time.monotonic() < end:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    buf = [b""]
    call(sock, buf, 1, "hello", {"app": f"{prefix}{done}"})
    if kind in ("decision", "region"):
        answer = call(sock, buf, 2, "authorization.request", {"level": "always"})
        if "error" in answer:
            codes[answer["error"]["code"]] = codes.get(answer["error"]["code"], 0) + 1
    if kind == "region":
        for k in range(20):
            answer = call(sock, buf, 3 + k, "region.monitor", {"identifier": f"r{k}", "lat": 48.0 + k * 0.01, "lon": 2.0, "radius": 100})
            if "error" in answer:
                codes[answer["error"]["code"]] = codes.get(answer["error"]["code"], 0) + 1
                break
    sock.close()
    done += 1
print(json.dumps({"apps": done, "errors": codes}))
'''


def store_bytes(state):
    return sum(os.path.getsize(os.path.join(state, name)) for name in os.listdir(state) if name.startswith("sextant.sqlite3"))


def control_call(runtime, method, params=None):
    import socket
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(os.path.join(runtime, "control.sock"))
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}) + "\n").encode())
    data = b""
    while b"\n" not in data:
        data += sock.recv(1 << 20)
    sock.close()
    return json.loads(data.split(b"\n")[0])["result"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--smoke", action="store_true", help="one second of each churn (Tools/bench/bench-smoke.sh)")
    args = parser.parse_args()
    if args.smoke:
        args.seconds = 1
    work = tempfile.mkdtemp(prefix="sextant-bench-churn-")
    os.chmod(work, 0o755)
    runtime, state = os.path.join(work, "run"), os.path.join(work, "state")
    script = os.path.join(work, "churn.py")
    with open(script, "w") as f:
        f.write(CHURN)
    os.chmod(script, 0o644)
    daemon = subprocess.Popen(
        [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", state, "--no-gpsd", "--no-iio",
         "--prompt-policy", "allowAlways", "--log-level", "error"], stderr=open(os.path.join(work, "sextantd.log"), "w"))
    try:
        deadline = time.monotonic() + 30
        while not os.path.exists(os.path.join(runtime, "app.sock")):
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("sextantd did not start")
            time.sleep(0.05)
        os.chmod(runtime, 0o755)
        time.sleep(0.5)
        print(f"one uid (65534) for {args.seconds:.0f} s each, {args.bin_dir}")
        print(f"{'':16} {'app ids':>8} {'store':>16} {'RSS':>18} {'bound':>6} {'regions':>8}  errors")
        for kind in ("hello", "region", "decision"):
            store_before, rss_before = store_bytes(state), status_kb(daemon.pid, "VmRSS")
            ran = subprocess.run(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, script,
                                  os.path.join(runtime, "app.sock"), kind, str(args.seconds), f"com.example.{kind}"],
                                 capture_output=True, text=True)
            if ran.returncode != 0:
                sys.exit(f"the {kind} churn failed: {ran.stderr}")
            figures = json.loads(ran.stdout)
            status = control_call(runtime, "status")
            bound = len(control_call(runtime, "permissions.owners"))
            store_after, rss_after = store_bytes(state), status_kb(daemon.pid, "VmRSS")
            print(f"{kind + ' churn':16} {figures['apps']:8} {(store_after - store_before) / 1e6:+8.2f} MB "
                  f"{(rss_after - rss_before) / 1024:+9.1f} MiB {bound:6} {status['regions']['count']:8}  {figures['errors']}")
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    print(f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
