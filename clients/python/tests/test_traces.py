"""sextant.traces: what a test writes is a trace sextantd reads (sextant-trace(5))."""

import json

import pytest

from sextant.traces import compass_turns, write_trace


def test_compass_turns_writes_a_header_a_fix_gravity_and_a_field_a_second(tmp_path):
    path = write_trace(tmp_path / "turns.jsonl", compass_turns([0, 90], lat=48.85, lon=2.29))
    lines = [json.loads(line) for line in open(path, encoding="utf-8")]
    assert lines[0] == {"sextant": "trace", "version": 1, "start": "2026-03-01T08:00:00.000Z"}
    assert lines[1] == {"t": 0, "location": {"lat": 48.85, "lon": 2.29}}
    assert lines[2] == {"t": 0, "accel": {"x": 0, "y": 0, "z": 9.81}}
    # Top to magnetic north: the field along +y; to the east: along -x.
    assert [line["t"] for line in lines[3:]] == [1, 2]
    assert lines[3]["magnet"] == {"x": pytest.approx(0, abs=1e-9), "y": pytest.approx(20), "z": -40}
    assert lines[4]["magnet"] == {"x": pytest.approx(-20), "y": pytest.approx(0, abs=1e-9), "z": -40}
