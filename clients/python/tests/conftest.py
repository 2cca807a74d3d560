"""The client's tests run against the real sextantd: SEXTANT_BIN (set by Tools/ci/test.sh)
or the first on PATH. The fixtures come from the package's own pytest plugin."""

import os

import pytest


def pytest_collection_modifyitems(config, items):
    from sextant import find_sextantd

    try:
        find_sextantd()
    except Exception as error:  # say why every test fails, once, instead of skipping silently
        raise pytest.UsageError("the client's tests need a built sextantd: %s" % error)


@pytest.fixture
def trace_file(tmp_path):
    """Writes a Sextant trace of `count` fixes `step` seconds apart, walking north."""

    def write(count=20, step=1.0, name="walk.jsonl"):
        lines = ['{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}']
        for i in range(count):
            lines.append('{"t":%s,"location":{"lat":%s,"lon":2.35,"hAcc":4}}' % (i * step, 48.0 + i * 0.0001))
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        return str(path)

    return write
