"""Live IIO sensors under umockdev, through `sextantctl run`: a fake accelerometer held on
its side, a private daemon that reads it (`--iio`), and a check run inside as COMMAND.

umockdev's testbed is driven by Tools/dev/iio-testbed.py (one JSON command a line); the daemon
started by `sextantctl run` inherits UMOCKDEV_DIR and LD_PRELOAD, and so sees the testbed's
devices instead of the machine's /sys."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPOSITORY

TESTBED = os.path.join(REPOSITORY, "Tools", "dev", "iio-testbed.py")


def umockdev_available():
    probe = subprocess.run(
        ["/usr/bin/python3", "-c", "import gi; gi.require_version('UMockdev', '1.0')"], capture_output=True
    )
    return probe.returncode == 0


def sextantctl():
    beside = os.path.join(os.path.dirname(os.environ.get("SEXTANT_BIN", "")), "sextantctl")
    return beside if os.access(beside, os.X_OK) else shutil.which("sextantctl")


class UmockdevTestbed:
    """Tools/dev/iio-testbed.py as a child process."""

    __test__ = False

    def __init__(self):
        self.process = subprocess.Popen(
            ["/usr/bin/python3", TESTBED], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.ready = json.loads(self.process.stdout.readline())

    def send(self, **command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        assert answer["ok"], answer
        return answer

    def environment(self):
        env = dict(os.environ)
        env["UMOCKDEV_DIR"] = self.ready["root"]
        env["LD_PRELOAD"] = ":".join(filter(None, [self.ready["preload"], env.get("LD_PRELOAD")]))
        return env

    def close(self):
        self.process.stdin.close()  # end of input: the testbed is deleted
        self.process.wait(30)


# What runs inside `sextantctl run`: the daemon is the one run started (SEXTANT_RUNTIME_DIR).
CHECK = """
from sextant import Control
with Control() as control:
    status = control.status()
    assert status.sources["iio"].startswith("accel"), status.sources
    with control.watch(["deviceOrientation"]) as watch:
        if control.status().device_orientation != "landscapeRight":
            watch.wait_for("deviceOrientation", lambda e: e["orientation"] == "landscapeRight", timeout=20)
print("landscapeRight from the IIO accelerometer")
"""


@pytest.mark.skipif(not umockdev_available(), reason="umockdev and python3-gi are needed (Tools/ci/setup.sh)")
def test_a_phone_on_its_side_as_a_live_iio_accelerometer_reads_it(tmp_path):
    testbed = UmockdevTestbed()
    try:
        # IIO reads the opposite sign: x = +981 × 0.01 m/s² is the device on its side,
        # Sextant's landscapeRight (sextant-rules(7), "Device orientation").
        testbed.send(
            op="add", name="iio:device0",
            attributes={"name": "accel_3d", "in_accel_x_raw": "981", "in_accel_y_raw": "0", "in_accel_z_raw": "0", "in_accel_scale": "0.01"},
        )
        script = tmp_path / "check.py"
        script.write_text(CHECK)
        result = subprocess.run(
            [sextantctl(), "run", "--iio", "--", sys.executable, str(script)],
            env=testbed.environment(), capture_output=True, text=True, timeout=120,
        )
    finally:
        testbed.close()
    assert result.returncode == 0, result.stderr
    assert "landscapeRight from the IIO accelerometer" in result.stdout
