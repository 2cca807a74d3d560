"""Activity and steps through the client (sextant-rules(7) A1–A9): typed activity,
transition and pedometer events from a replayed walk, the queries, and an activity held by
hand. The entry delays on virtual time are tested in process
(Tests/SextantServerTests/ActivityHubTests.swift)."""

import math

import pytest

import sextant

METRES_PER_DEGREE = 6371008.8 * math.pi / 180


def walk_trace(path, seconds, speed=1.4):
    """One fix a second due north at ``speed`` m/s."""
    lines = ['{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}']
    for t in range(seconds + 1):
        lines.append('{"t":%d,"location":{"lat":%r,"lon":2.3}}' % (t, 48 + t * speed / METRES_PER_DEGREE))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_a_walk_gives_walking_its_transition_and_steps(sextant_control, sextant_app, tmp_path):
    app = sextant_app("com.example.fit")
    sextant_control.set_motion_permission("com.example.fit", "authorized")
    app.start_activity()
    app.start_activity_transitions(types=["walking"], transitions=["enter"])
    app.start_pedometer()
    sextant_control.replay_start(walk_trace(tmp_path / "walk.jsonl", 60), speed="max")
    walking = app.next_activity(lambda a: a.types == ["walking"])
    assert isinstance(walking, sextant.Activity) and walking.source == "derived"
    assert walking.start_date == "2026-03-01T08:00:01.000Z"
    entered = app.next_activity_transition()
    assert (entered.activity, entered.transition) == ("walking", "enter")
    last = app.next_pedometer(lambda p: p.end_date == "2026-03-01T08:01:00.000Z")
    assert isinstance(last, sextant.Pedometer)
    assert last.number_of_steps == int(84 / 0.73)
    assert last.distance <= 84 and 84 - last.distance < 0.73
    total = app.query_pedometer("2026-03-01T08:00:00.000Z", "2026-03-01T09:00:00.000Z")
    assert total.number_of_steps == last.number_of_steps and total.current_cadence is None
    history = app.query_activity("2026-03-01T08:00:00.000Z", "2026-03-01T09:00:00.000Z")
    assert [a.types for a in history][:1] == [["walking"]]


def test_an_activity_held_by_hand_and_given_back(sextant_control, sextant_app):
    app = sextant_app("com.example.fit")
    sextant_control.set_motion_permission("com.example.fit", "authorized")
    app.start_activity()
    sextant_control.set_activity("automotive")
    held = app.next_activity()
    assert (held.types, held.source, held.confidence) == (["automotive"], "hand", "high")
    with pytest.raises(sextant.ProtocolError) as refused:
        sextant_control.set_activity("flying")
    assert refused.value.code == -32602 and "activity" in str(refused.value)


def test_without_motion_and_fitness_activity_is_refused(sextant_control, sextant_app):
    app = sextant_app("com.example.fit")
    assert app.activity_authorization() == "notDetermined"
    with pytest.raises(sextant.ProtocolError) as refused:
        app.start_pedometer()
    assert refused.value.code == 1001 and "Motion & Fitness is notDetermined" in str(refused.value)
    sextant_control.set_motion_permission("com.example.fit", "authorized")
    assert app.activity_authorization() == "authorized"
    app.start_pedometer()


def test_a_bad_transition_type_is_refused_naming_it(sextant_control, sextant_app):
    app = sextant_app("com.example.fit")
    sextant_control.set_motion_permission("com.example.fit", "authorized")
    with pytest.raises(sextant.ProtocolError) as refused:
        app.start_activity_transitions(types=["walking", "flying"])
    assert refused.value.code == -32602 and "types[1]" in str(refused.value)
