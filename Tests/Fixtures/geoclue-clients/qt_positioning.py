"""A GeoClue client as Qt apps reach it: Qt Positioning's geoclue2 plugin (Debian's
libqt5positioning5-plugins, through python3-pyqt5.qtpositioning), asking for satellite
positioning (GeoClue's EXACT level).

Usage: qt_positioning.py DESKTOP_ID COUNT. Prints one line per position update,
"LATITUDE LONGITUDE SECONDS_SINCE_EPOCH", and ends after COUNT of them, or prints
"error N" on the source's error (or ends after 60 s). Run it with a fresh XDG_DATA_HOME:
the plugin keeps the last position in a file there and hands it out first."""

import sys

from PyQt5.QtCore import QCoreApplication, QTimer
from PyQt5.QtPositioning import QGeoPositionInfoSource

desktop_id, wanted = sys.argv[1], int(sys.argv[2])
app = QCoreApplication(sys.argv)
# The plugin's DesktopId is the application's name (Qt 5.15 takes no parameter for it).
app.setApplicationName(desktop_id)
source = QGeoPositionInfoSource.createSource("geoclue2", app)
if source is None:
    sys.exit("qt_positioning: no geoclue2 plugin")
printed = 0


def update(info):
    global printed
    coordinate = info.coordinate()
    print(f"{coordinate.latitude():.6f} {coordinate.longitude():.6f} {info.timestamp().toSecsSinceEpoch()}", flush=True)
    printed += 1
    if printed >= wanted:
        app.quit()


def failed(error):
    print(f"error {int(error)}", flush=True)
    app.quit()


source.positionUpdated.connect(update)
source.error.connect(failed)
source.setPreferredPositioningMethods(QGeoPositionInfoSource.SatellitePositioningMethods)
source.setUpdateInterval(0)
source.startUpdates()
QTimer.singleShot(60000, app.quit)
app.exec_()
