"""heading.start through the client: typed heading events from a replayed magnetometer
(sextant-rules(7) H1–H8)."""

import pytest

import sextant
from sextant.traces import compass_turns, write_trace


def compass_walk(path, headings):
    """A device lying flat in Paris whose top turns to each heading, one reading a second."""
    return write_trace(path, compass_turns(headings, lat=48.85, lon=2.29))


def test_start_heading_gives_typed_headings_and_true_only_while_authorized(sextant_control, sextant_app, tmp_path):
    app = sextant_app("com.example.compass")
    app.start_heading(filter=0)
    sextant_control.replay_start(compass_walk(tmp_path / "walk.jsonl", [30, 60]), speed="max")
    first = app.next_heading()
    assert isinstance(first, sextant.Heading)
    assert first.magnetic == pytest.approx(30, abs=0.01)
    assert first.true is None, "no location authorization: no true heading (H8)"
    assert first.accuracy == 5
    assert first.field["z"] == -40
    assert first.time == "2026-03-01T08:00:01.000Z"
    assert app.next_heading().magnetic == pytest.approx(60, abs=0.01)

    sextant_control.grant("com.example.compass")
    sextant_control.replay_start(compass_walk(tmp_path / "again.jsonl", [90]), speed="max")
    granted = app.next_heading()
    assert granted.true is not None and granted.true == pytest.approx(90 + 1.98, abs=0.02)
    app.stop_heading()


def test_heading_filter_out_of_range_is_refused(sextant_app):
    app = sextant_app("com.example.compass")
    with pytest.raises(sextant.ProtocolError) as refused:
        app.start_heading(filter=200)
    assert refused.value.code == -32602
    assert "filter" in str(refused.value)


def test_a_heading_or_field_held_by_hand_over_a_replay_and_released(sextant_control, sextant_app, tmp_path):
    """O4a: the hand's heading is heard over the replay's field until released; a field held
    by hand takes the heading's place; status says what is held."""
    app = sextant_app("com.example.compass")
    app.start_heading(filter=0)
    sextant_control.replay_start(compass_walk(tmp_path / "north.jsonl", [0] * 120), speed=1)
    assert app.next_heading().magnetic == pytest.approx(0, abs=0.01)
    sextant_control.set_heading(123.5, accuracy=7)
    held = app.next_heading(lambda heading: heading.magnetic == 123.5)
    assert held.accuracy == 7 and held.field is None
    assert sextant_control.status().raw["held"] == ["compass"]
    sextant_control.set_magnetic_field(-20, 0, -40)
    app.next_heading(lambda heading: heading.magnetic == 90)
    assert sextant_control.status().raw["held"] == ["magnet"]
    sextant_control.release_magnetic_field()
    app.next_heading(lambda heading: heading.magnetic == 0)
    assert sextant_control.status().raw["held"] == []
