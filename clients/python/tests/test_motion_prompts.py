"""The Motion & Fitness prompt (iOS, docs/motion.md A13, A14) and Android's ACTIVITY_RECOGNITION
dialog (A15) through the Python client: the app's call waits, the control side answers."""

import pytest

import sextant
from sextant import Daemon

APP = "com.example.fit"


def test_a12_ios_start_waits_for_the_motion_prompt():
    with Daemon() as daemon:
        control = daemon.control()
        app = daemon.app(APP, declarations={"motionUsageDescription": "Counts your steps"})
        assert app.activity_authorization() == "notDetermined"
        pending = app.start_activity_async()
        prompt = control.wait_for_prompt(app=APP, kind="motionFitness")
        assert control.answer_prompt(prompt, "allow")["choice"] == "allow"
        assert pending.result() == {}
        assert app.activity_authorization() == "authorized"
        app.close()


def test_a13_ios_without_usage_description_is_refused_naming_it():
    with Daemon() as daemon:
        app = daemon.app(APP)
        with pytest.raises(sextant.ProtocolError) as refused:
            app.start_pedometer()
        assert refused.value.code == 1001 and "NSMotionUsageDescription" in str(refused.value)
        app.close()


def test_a14_android_dialog_allow_and_deny():
    with Daemon(args=["--platform", "android", "--android-api", "34"]) as daemon:
        control = daemon.control()
        app = daemon.app(APP, declarations={"androidPermissions": ["android.permission.ACTIVITY_RECOGNITION"]})
        pending = app.request_motion_authorization_async()
        prompt = control.wait_for_prompt(app=APP, kind="androidActivityRecognition")
        control.answer_prompt(prompt, "dontAllow")
        assert pending.result()["status"] == "denied"
        pending = app.request_motion_authorization_async()
        control.answer_prompt(control.wait_for_prompt(app=APP), "allow")
        assert pending.result()["status"] == "authorized"
        app.start_pedometer()
        app.close()
