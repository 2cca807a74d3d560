"""A GeoClue client as GNOME apps write one: libgeoclue's GClue.Simple through GObject
introspection (Debian's gir1.2-geoclue-2.0 and python3-gi), unmodified in behaviour.

Usage: gclue_simple.py DESKTOP_ID COUNT. Prints one line per location it is handed,
"LATITUDE LONGITUDE ACCURACY TIMESTAMP", and ends after COUNT of them (or 60 s).
GClue.Simple's constructor returns once the first location has come."""

import sys

import gi

gi.require_version("Geoclue", "2.0")
from gi.repository import GLib, Geoclue  # noqa: E402

desktop_id, wanted = sys.argv[1], int(sys.argv[2])
loop = GLib.MainLoop()
printed = 0


def show(simple, *_):
    global printed
    location = simple.get_location()
    seconds, _micro = location.get_property("timestamp")
    print(f"{location.get_property('latitude'):.6f} {location.get_property('longitude'):.6f} "
          f"{location.get_property('accuracy'):g} {seconds}", flush=True)
    printed += 1
    if printed >= wanted:
        loop.quit()


simple = Geoclue.Simple.new_sync(desktop_id, Geoclue.AccuracyLevel.EXACT, None)
simple.connect("notify::location", show)
show(simple)
GLib.timeout_add_seconds(60, loop.quit)
if printed < wanted:
    loop.run()
