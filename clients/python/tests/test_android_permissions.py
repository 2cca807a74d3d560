"""The client on an Android phone (docs/platforms.md AN rules): the request names Android's
permissions, the dialog takes Android's buttons, the answer and the event carry the grants."""

import sextant
from sextant import Daemon

APP = "com.example.android"


def test_android_dialog_buttons_and_grants():
    with Daemon(args=["--platform", "android", "--android-api", "34"]) as daemon:
        control = daemon.control()
        app = daemon.app(APP)
        pending = app.request_authorization_async(permissions=["coarse", "fine"])
        prompt = control.wait_for_prompt(app=APP)
        assert prompt.kind == "androidLocation"
        answer = control.answer_prompt(prompt, "onlyThisTime", approximate=True)
        assert answer["choice"] == "onlyThisTime"
        decided = pending.result()
        assert (decided.status, decided.accuracy) == ("authorizedWhenInUse", "reduced")
        assert decided.grants == {"coarse": "granted", "fine": "denied", "background": "denied"}
        assert decided.one_time is True

        # AN7: background is asked alone and granted from the control side, as Settings would.
        assert app.request_authorization(permissions=["background"]).grants["background"] == "denied"
        entry = control.set_android_grants(APP, ["coarse", "fine", "background"])
        assert entry["status"] == "authorizedAlways"
        event = app.wait_for("authorization", lambda e: e.get("status") == "authorizedAlways")
        assert event["grants"]["background"] == "granted"

        # AN5: denials: 2 is don't ask again; the request is answered at once.
        control.set_android_grants(APP, [], denials=2)
        assert app.request_authorization(permissions=["coarse", "fine"]) == sextant.Authorization(
            "denied", "full", {"coarse": "denied", "fine": "denied", "background": "denied"}, False
        )
        app.close()
