"""Tests of Tools/bench/fresh_binary.py on build directories laid out as SwiftPM's, made up
in a temporary folder (files and their times, no build):
    python3 -m pytest -q Tools/bench/test_fresh_binary.py
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fresh_binary  # noqa: E402


def touch(path, at):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a"):
        pass
    os.utime(path, (at, at))


@pytest.fixture
def bin_dir(tmp_path):
    """`.build/release`, a link to `.build/x86_64-unknown-linux-gnu/release` as SwiftPM makes."""
    real = tmp_path / ".build" / "x86_64-unknown-linux-gnu" / "release"
    real.mkdir(parents=True)
    os.symlink(real, tmp_path / ".build" / "release")
    return str(tmp_path / ".build" / "release")


def product(bin_dir, name, objects, at, listed_root="/elsewhere/.build/x86_64-unknown-linux-gnu/release"):
    """NAME linked at `at` from `objects` ({relative path: mtime}); the list names them under
    `listed_root`, the build directory as the linking build saw it (another mount)."""
    for relative, mtime in objects.items():
        touch(os.path.join(bin_dir, relative), mtime)
    os.makedirs(os.path.join(bin_dir, f"{name}.product"))
    with open(os.path.join(bin_dir, f"{name}.product", "Objects.LinkFileList"), "w") as f:
        for relative in objects:
            # Paths with a space are quoted in SwiftPM's list.
            f.write((f"'{listed_root}/{relative}'" if " " in relative else f"{listed_root}/{relative}") + "\n")
    touch(os.path.join(bin_dir, name), at)


def test_a_hard_link_made_afresh_is_current(bin_dir):
    touch(os.path.join(bin_dir, "sextant"), 2000)
    os.link(os.path.join(bin_dir, "sextant"), os.path.join(bin_dir, "sextantd"))
    assert fresh_binary.stale_reason(bin_dir, "sextantd") is None


def test_a_link_the_multi_call_was_rebuilt_past_is_refused_naming_both(bin_dir):
    touch(os.path.join(bin_dir, "sextantd"), 1000)  # the previous sextant, kept by the old link
    touch(os.path.join(bin_dir, "sextant"), 2000)
    reason = fresh_binary.stale_reason(bin_dir, "sextantd")
    assert reason and os.path.join(bin_dir, "sextantd") in reason and os.path.join(bin_dir, "sextant") + " " in reason
    with pytest.raises(SystemExit):
        fresh_binary.program(bin_dir, "sextantd")


def test_a_product_older_than_its_rebuilt_objects_is_refused(bin_dir):
    product(bin_dir, "sextantd", {"SextantHub.build/Hub.swift.o": 900, "Atomics.build/Unmanaged extensions.swift.o": 900}, 1000)
    touch(os.path.join(bin_dir, "SextantHub.build", "Hub.swift.o"), 1500)  # `--product sextant` recompiled it
    touch(os.path.join(bin_dir, "sextant"), 1600)
    reason = fresh_binary.stale_reason(bin_dir, "sextantd")
    assert reason and "Hub.swift.o" in reason and os.path.join(bin_dir, "sextant") + " is newer" in reason
    touch(os.path.join(bin_dir, "SextantHub.build", "Hub.swift.o"), 900)
    touch(os.path.join(bin_dir, "Atomics.build", "Unmanaged extensions.swift.o"), 1500)
    assert "Unmanaged extensions" in fresh_binary.stale_reason(bin_dir, "sextantd")


def test_a_product_linked_after_its_objects_is_current_though_sextant_is_newer(bin_dir):
    """A debug build links sextant and sextantd separately; an edit of the panel relinks sextant only."""
    product(bin_dir, "sextantd", {"SextantHub.build/Hub.swift.o": 900}, 1000)
    touch(os.path.join(bin_dir, "sextant"), 5000)
    assert fresh_binary.stale_reason(bin_dir, "sextantd") is None


def test_a_missing_program_is_named(bin_dir):
    assert "does not exist" in fresh_binary.stale_reason(bin_dir, "sextantctl")


def test_without_a_multi_call_program_a_lone_sextantd_is_current(bin_dir):
    touch(os.path.join(bin_dir, "sextantd"), 1000)
    assert fresh_binary.program(bin_dir, "sextantd") == os.path.join(bin_dir, "sextantd")
