// Reaches libgps (gpsd's client library) from Swift.
#include <gps.h>
#include <stdlib.h>

// gps_read() takes a message buffer since API 7; Debian's libgps 3.22 is API 11.
#if GPSD_API_MAJOR_VERSION < 7
#error "Sextant needs libgps API 7 or later (gps_read with a message buffer)"
#endif

// The session structure is large (sky view, AIS and RTCM unions): it lives on the heap,
// zeroed, so that Swift never builds one on a thread's stack.
static inline struct gps_data_t *sextant_gps_data_new(void) {
    return (struct gps_data_t *)calloc(1, sizeof(struct gps_data_t));
}

static inline void sextant_gps_data_free(struct gps_data_t *data) { free(data); }

// The socket libgps opened; gps_fd_t is a plain int on POSIX systems.
static inline int sextant_gps_fd(const struct gps_data_t *data) { return (int)data->gps_fd; }

// "?WATCH={"enable":true,"json":true}": gpsd streams its JSON reports to this client.
static inline int sextant_gps_watch_json(struct gps_data_t *data) {
    return gps_stream(data, WATCH_ENABLE | WATCH_JSON, NULL);
}
