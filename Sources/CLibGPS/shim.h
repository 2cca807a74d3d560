// Reaches libgps (gpsd's client library) from Swift.
#include <gps.h>
