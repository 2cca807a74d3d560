"""The examples use the `sextant` package's pytest plugin (installed with
`pip install ./clients/python`): `sextant_daemon`, `sextant_control`, `sextant_app` and the
`sextant` marker. SEXTANT_BIN names the sextantd to run when it is not on PATH."""

import json
import os

import pytest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WALK = os.path.join(REPOSITORY, "Traces", "demo-walk.jsonl")


def trace_locations(path):
    """The (t, lat, lon) of every location sample of a Sextant trace, read from the file."""
    locations = []
    with open(path, encoding="utf-8") as trace:
        for line in trace:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            sample = json.loads(line)
            if "location" in sample:
                locations.append((sample["t"], sample["location"]["lat"], sample["location"]["lon"]))
    return locations


@pytest.fixture
def walk():
    """The Champ de Mars walk of the demo: its path and its location samples."""
    return WALK, trace_locations(WALK)
