"""The report a tester opens: a failing test that used the fixtures leaves one self-contained
HTML page with the trace plot, what the app received, the permissions at the end and the
daemon's log; a passing test leaves none unless --sextant-report asks for every test."""

import re
import xml.etree.ElementTree as ElementTree

pytest_plugins = ["pytester"]

TRACE = "\n".join(
    ['{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}']
    + ['{"t":%d,"location":{"lat":%.4f,"lon":2.35,"hAcc":4}}' % (i, 48.0 + i * 0.0001) for i in range(10)]
) + "\n"

FAILING = """
import pytest

@pytest.mark.sextant(trace="walk.jsonl", speed="max")
def test_walk_then_revoked(sextant_app, sextant_control):
    sextant_control.grant("com.example.shown")
    app = sextant_app("com.example.shown")
    app.monitor_region("gate<&>", 48.0, 2.35, 200, notify_initial_state=True)
    app.start_location()
    app.wait_for("region")
    if not any(e.method == "location" and e["lat"] >= 48.0009 for e in app.received):
        app.wait_for("location", lambda e: e["lat"] >= 48.0009)
    sextant_control.revoke("com.example.shown")
    app.wait_for("authorization", lambda e: e["status"] == "denied")
    assert False, "<script>alert('the app said')</script>"
"""

PASSING = """
def test_passes(sextant_app, sextant_control):
    sextant_control.grant("com.example.fine")
    sextant_app("com.example.fine")
"""

SVG_NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


def report_paths(output):
    return re.findall(r"(/\S+\.html)", output)


def assert_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    # Nothing fetched: no script or style from elsewhere, no address but the SVG namespace's.
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert set(re.findall(r"(?:https?|file|ftp)://[^\s\"'&<>)]*", page)) <= SVG_NAMESPACES
    assert re.search(r'\ssrc="', page) is None


def test_a_failing_test_leaves_one_page_with_what_the_app_saw(pytester):
    pytester.path.joinpath("walk.jsonl").write_text(TRACE)
    pytester.makepyfile(FAILING)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--junitxml=out/junit.xml")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*sextant report*", "*/out/sextant-reports/test_a_failing_test_leaves_one_page*.html"])
    [path] = set(report_paths(result.stdout.str()))
    with open(path, encoding="utf-8") as file:
        page = file.read()
    assert_self_contained(page)
    # The failure, escaped as everything the test or the app wrote.
    assert "&lt;script&gt;alert(&#x27;the app said&#x27;)&lt;/script&gt;" in page
    assert "gate&lt;&amp;&gt;" in page and "gate<&>" not in page
    # The trace plot, with the app's events on it, in a sandboxed frame of the same file.
    assert '<iframe sandbox="allow-scripts" srcdoc="' in page and "with the apps&#x27; events" in page
    # The timeline: what the daemon sent the app, by the time it arrived.
    assert page.count("<td>com.example.shown</td><td>location</td>") >= 10
    assert "<td>com.example.shown</td><td>authorization</td>" in page
    # The permissions at the end, and the daemon's log.
    assert "<td>com.example.shown</td><td>denied</td><td>full</td>" in page
    assert "sextantd ready" in page
    properties = ElementTree.parse(str(pytester.path / "out" / "junit.xml")).findall(".//property[@name='sextant_report']")
    assert [p.get("value") for p in properties] == [path]


def test_a_passing_test_leaves_none_unless_asked(pytester):
    pytester.makepyfile(PASSING)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert report_paths(result.stdout.str()) == []
    assert not list(pytester.path.rglob("*.html"))

    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--sextant-report", "kept")
    result.assert_outcomes(passed=1)
    [path] = [str(p) for p in (pytester.path / "kept").glob("*.html")]
    assert path in report_paths(result.stdout.str())
    with open(path, encoding="utf-8") as file:
        page = file.read()
    assert_self_contained(page)
    assert '<span class="passed">passed</span>' in page
    assert "<td>com.example.fine</td><td>authorizedWhenInUse</td><td>full</td>" in page
    assert "the test replayed no trace" in page


def test_the_record_of_what_the_daemon_published_stays_bounded(sextant_daemon, sextant_control):
    from sextant.recorder import WatchRecorder

    recorder = WatchRecorder.start(sextant_daemon.runtime_dir, limit=5)
    try:
        for i in range(12):
            sextant_control.set_location(10.0 + i, 20.0)
        assert recorder.wait_until_seen(12, timeout=10), recorder.events()
        kept = recorder.events()
        assert len(kept) == 5 and recorder.dropped == recorder.seen - 5
        assert [event["lat"] for _, event in kept if event.method == "location"][-1] == 21.0
        assert [arrived for arrived, _ in kept] == sorted(arrived for arrived, _ in kept)
    finally:
        recorder.stop()
    assert recorder.ended is not None


def test_every_text_an_app_or_the_daemon_wrote_is_escaped():
    from sextant import Event
    from sextant.report_html import ReportFacts, render

    hostile = "\"'><img src=x onerror=alert(1)></iframe><script>alert(2)</script>"
    facts = ReportFacts(
        test="t" + hostile, outcome="failed", failure=hostile, started=100.0, finished=101.0,
        watched=[(100.5, Event("location", {"app": hostile, "lat": 1, "lon": 2, "note": hostile})), (100.6, Event(hostile, {}))],
        watch_note=hostile, apps=[(hostile, 1, [Event(hostile, {"x": hostile})])],
        snapshot={"permissions": [{"app": hostile, "status": hostile}], "prompts": [{"id": hostile}],
                  "sessions": [{"app": hostile}], "status": {"x": hostile}},
        log_tail=hostile, plot_html="<html>" + hostile + "</html>", plot_note=hostile, bridges=[(hostile, hostile)],
    )
    page = render(facts)
    assert_self_contained(page)
    assert hostile not in page and "<img" not in page and page.count("<iframe") == 1
    assert page.count("&lt;img src=x onerror=alert(1)&gt;") >= 10


def test_pytest_html_links_the_page(pytester):
    """Runs where pytest-html is installed (Tools/ci/test.sh's environment has none)."""
    import pytest

    pytest.importorskip("pytest_html")
    pytester.makepyfile(PASSING + "    assert False\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--html=out/report.html")
    result.assert_outcomes(failed=1)
    [path] = {path for path in report_paths(result.stdout.str()) if "/sextant-reports/" in path}
    assert "file://" + path in (pytester.path / "out" / "report.html").read_text()
