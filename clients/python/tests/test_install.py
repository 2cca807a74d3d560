"""Issue 24.5: `pip install ./clients/python` works with a Python that has no `wheel` and
no network (the index is refused), with and without build isolation, and writes nothing into
the checkout."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[1]


def checkout_state():
    """What git sees under clients/python, ignored files included (bytecode aside: any
    import of the checkout writes it)."""
    listing = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "--", "."],
        cwd=CLIENT, capture_output=True, text=True, check=True,
    ).stdout
    return sorted(line for line in listing.splitlines() if "__pycache__" not in line)


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """A fresh venv's python: pip from ensurepip, no `wheel`, no system site packages."""
    directory = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(directory)], check=True)
    python = str(directory / "bin" / "python")
    subprocess.run([python, "-m", "pip", "uninstall", "--yes", "--quiet", "wheel"], capture_output=True)
    assert subprocess.run([python, "-c", "import wheel"], capture_output=True).returncode != 0
    return python


@pytest.mark.parametrize("isolation", ["isolated", "--no-build-isolation"])
def test_installs_without_wheel_offline_and_leaves_the_checkout_alone(bare_python, isolation):
    before = checkout_state()
    environment = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    command = [bare_python, "-m", "pip", "install", "--force-reinstall", "--no-index", "--disable-pip-version-check"]
    if isolation != "isolated":
        command.append(isolation)
    result = subprocess.run(command + [str(CLIENT)], capture_output=True, text=True, env=environment)
    assert result.returncode == 0, result.stdout + result.stderr
    check = (
        "import importlib.metadata as m, sextant; "
        "print(sorted((e.group, e.name, e.value) for e in m.distribution('sextant').entry_points))"
    )
    installed = subprocess.run([bare_python, "-c", check], capture_output=True, text=True, cwd="/")
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.strip() == "[('pytest11', 'sextant', 'sextant.pytest_plugin')]"
    assert checkout_state() == before
