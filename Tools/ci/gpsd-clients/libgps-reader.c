/*
 * libgps-reader: a plain libgps client, built by the tests (and the gpsd-face benchmark)
 * with `cc libgps-reader.c -lgps`. It connects to HOST PORT, watches with JSON, and
 * prints one line per TPV report:
 *
 *   READY                               once gpsd (or Sextant) acknowledged the watch
 *   FIX <mode> <lat> <lon> <time> <recv> for a TPV with a position
 *   NOFIX <mode> <time>                 for a TPV without one (time 0 when it has none)
 *
 * <time> is the fix's time and <recv> the CLOCK_REALTIME at which gps_read returned it,
 * both in seconds with nanoseconds. It stops after COUNT TPVs, or when nothing comes for
 * IDLE seconds (exit 2), or when the server hangs up (exit 3).
 */
#include <errno.h>
#include <gps.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s HOST PORT COUNT [IDLE-SECONDS]\n", argv[0]);
        return 64;
    }
    long count = strtol(argv[3], NULL, 10);
    double idle = argc > 4 ? strtod(argv[4], NULL) : 10.0;
    struct gps_data_t data;
    if (gps_open(argv[1], argv[2], &data) != 0) {
        fprintf(stderr, "gps_open %s:%s: %s\n", argv[1], argv[2], gps_errstr(errno));
        return 1;
    }
    gps_stream(&data, WATCH_ENABLE | WATCH_JSON, NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    long tpvs = 0;
    char message[8192];
    while (tpvs < count) {
        if (!gps_waiting(&data, (int)(idle * 1e6))) {
            fprintf(stderr, "nothing for %.1f s after %ld TPVs\n", idle, tpvs);
            return 2;
        }
        message[0] = '\0';
        if (gps_read(&data, message, sizeof message) < 0) {
            fprintf(stderr, "gps_read: the server hung up after %ld TPVs\n", tpvs);
            return 3;
        }
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        if (strstr(message, "\"class\":\"WATCH\"") != NULL) {
            printf("READY\n");
        } else if (strstr(message, "\"class\":\"TPV\"") != NULL) {
            tpvs++;
            if (data.fix.mode >= MODE_2D && isfinite(data.fix.latitude) && isfinite(data.fix.longitude)) {
                printf("FIX %d %.9f %.9f %lld.%09ld %lld.%09ld\n", data.fix.mode, data.fix.latitude, data.fix.longitude,
                       (long long)data.fix.time.tv_sec, data.fix.time.tv_nsec, (long long)now.tv_sec, now.tv_nsec);
            } else {
                printf("NOFIX %d %lld.%09ld\n", data.fix.mode, (long long)data.fix.time.tv_sec, data.fix.time.tv_nsec);
            }
        }
    }
    gps_close(&data);
    return 0;
}
