"""Sextant traces (sextant-trace(5)) written by a test: the header line and one sample a
line, for ``Control.replay_start`` or the ``sextant`` marker's ``trace``."""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, Iterable, List, Sequence, Union

Sample = Dict[str, Any]

START = "2026-03-01T08:00:00.000Z"


def write_trace(path: Union[str, os.PathLike], samples: Iterable[Sample], start: str = START) -> str:
    """Writes ``samples`` (each ``{"t": seconds, KIND: value}``) as a trace that starts at
    ``start``; returns the path as a string."""
    lines = [json.dumps({"sextant": "trace", "version": 1, "start": start}, separators=(",", ":"))]
    lines += [json.dumps(sample, separators=(",", ":")) for sample in samples]
    with open(path, "w", encoding="utf-8") as trace:
        trace.write("\n".join(lines) + "\n")
    return os.fspath(path)


def compass_turns(headings: Sequence[float], lat: float, lon: float) -> List[Sample]:
    """A device lying flat at (``lat``, ``lon``) whose top turns to each magnetic heading in
    turn, one magnetometer reading a second from t = 1, in a field of 20 µT north and 40 µT
    down (Paris's is 21 and 43): its location and gravity at t = 0, then the readings."""
    samples: List[Sample] = [{"t": 0, "location": {"lat": lat, "lon": lon}}, {"t": 0, "accel": {"x": 0, "y": 0, "z": 9.81}}]
    for i, heading in enumerate(headings):
        a = math.radians(heading)
        samples.append({"t": i + 1, "magnet": {"x": -20 * math.sin(a), "y": 20 * math.cos(a), "z": -40}})
    return samples
