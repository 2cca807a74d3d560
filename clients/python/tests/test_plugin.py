"""The pytest plugin as a user meets it: a failing test's report shows the daemon's log
tail and the events each app saw."""

pytest_plugins = ["pytester"]


def test_a_failing_test_shows_the_log_tail_and_the_events(pytester):
    pytester.makepyfile(
        """
        def test_fails(sextant_app, sextant_control):
            sextant_control.grant("com.example.shown")
            app = sextant_app("com.example.shown")
            app.start_location()
            sextant_control.set_location(1.5, 2.5)
            app.wait_for("location")
            assert False, "on purpose"
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*sextantd log (tail)*", "*sextantd ready*", "*events seen by com.example.shown (session 1)*", '*location {*"lat": 1.5*'])


def test_the_marker_is_registered(pytester):
    result = pytester.runpytest_subprocess("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.sextant(**options)*"])
