/*
 * The reading side of Tools/bench/bench-fanout.py: the apps' sockets, read with epoll.
 *
 * The Python reader of a thousand sockets spends more CPU than the daemon it measures,
 * on the same two cores, so its arrival times were its own latency, not sextantd's. This
 * reader costs a few microseconds per line, so what it reports is the daemon's fan-out
 * (and the kernel's socket wake-up), not the reader's backlog.
 *
 *   fanout-reader FIXES TIMEOUT_S [in-order] [event=METHOD] [hz=RATE] [sparse=GAP] < DESCRIPTORS
 *
 * `event=heading hz=50` (Tools/bench/bench-fanout.py --heading) counts the `heading` events of a
 * 50 Hz magnetometer instead, indexed by their `time` in fiftieths of a second: the same
 * reading for any event whose params carry the sample's `time`.
 *
 * `sparse=GAP`: not every index comes (a heading filter holds some readings back, at most
 * GAP - 1 in a row): an app is done at its first event of index FIXES - GAP or later.
 * The fewest and most events an app got are printed on standard error, "counts MIN MAX".
 *
 * Reads the sockets inherited as the descriptors listed on standard input (numbers
 * separated by spaces, at most 100000) until each has had FIXES
 * `location` events (or TIMEOUT_S passes), and prints, for each fix (by its `time`, a
 * tenth of a second since 08:00:00 of the trace's day), the CLOCK_MONOTONIC second at
 * which the LAST app got it: "INDEX SECONDS" per line. Python's time.monotonic() reads
 * the same clock.
 *
 * With `in-order` (Tools/bench/bench-replay.py: every fix of the trace goes to every app) each
 * app's k-th `location` must be fix k: a fix missing, repeated or out of order fails the
 * run (exit 4, naming the app and the fixes), so a faster daemon cannot pass by dropping.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

/* The longest line, and the most one read takes (a max-speed replay fills a socket at a time). */
#define LINE_MAX_BYTES 65536

struct app {
    int fd;
    int fixes;
    int finished;
    size_t used;
    char partial[LINE_MAX_BYTES];
};

static double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The fix's index from `"time":"YYYY-MM-DDTHH:MM:SS.sssZ"`: tenths of a second since
 * 08:00 of the trace's first day (the 1st of its month: a day at 10 Hz runs into the 2nd). */
static long period_ms = 100;                  /* hz=: the events' spacing */
static const char *event_key = "\"method\":\"location\""; /* event=: the method counted */

static long fix_index(const char *line, size_t length) {
    static const char key[] = "\"time\":\"";
    const char *at = memmem(line, length, key, sizeof key - 1);
    if (!at || (size_t)(line + length - at) < sizeof key - 1 + 24) return -1;
    const char *date = at + sizeof key - 1;   /* YYYY-MM-DD */
    const char *clock = date + 11;            /* HH:MM:SS.sss */
    /* Digit by digit: strtod on 8.6 M lines cost the reader as much CPU as the daemon. */
    for (int i = 0; i < 12; i++)
        if (i != 2 && i != 5 && i != 8 && (clock[i] < '0' || clock[i] > '9')) return -1;
    if (date[8] < '0' || date[8] > '9' || date[9] < '0' || date[9] > '9') return -1;
#define TWO_DIGITS(p) (((p)[0] - '0') * 10 + ((p)[1] - '0'))
    long seconds = (TWO_DIGITS(date + 8) - 1) * 86400L + (TWO_DIGITS(clock) - 8) * 3600L + TWO_DIGITS(clock + 3) * 60L + TWO_DIGITS(clock + 6);
    long milliseconds = seconds * 1000 + (clock[9] - '0') * 100 + TWO_DIGITS(clock + 10);
#undef TWO_DIGITS
    return milliseconds < 0 ? -1 : (milliseconds + period_ms / 2) / period_ms;
}

static int in_order; /* the `in-order` argument */
static long sparse_gap; /* sparse=: 0 when every index comes */

/* Handles the complete lines in `app`'s buffer; keeps the partial one. */
static void take_lines(struct app *app, double now, double *latest, long fixes, int *done) {
    char *start = app->partial, *end = app->partial + app->used, *newline;
    while ((newline = memchr(start, '\n', (size_t)(end - start)))) {
        size_t length = (size_t)(newline - start);
        if (memmem(start, length, event_key, strlen(event_key))) {
            long index = fix_index(start, length);
            if (in_order && index != app->fixes) {
                fprintf(stderr, "fanout-reader: descriptor %d: location %d is fix %ld, not fix %d\n", app->fd, app->fixes, index, app->fixes);
                exit(4);
            }
            if (index >= 0 && index < fixes && now > latest[index]) latest[index] = now;
            app->fixes++;
            if (sparse_gap ? (index >= fixes - sparse_gap && !app->finished) : app->fixes == fixes) {
                app->finished = 1;
                (*done)++;
            }
        }
        start = newline + 1;
    }
    app->used = (size_t)(end - start);
    memmove(app->partial, start, app->used);
}

int main(int argc, char **argv) {
    static char key[128];
    int usage = argc < 3;
    for (int i = 3; i < argc && !usage; i++) {
        if (strcmp(argv[i], "in-order") == 0) {
            in_order = 1;
        } else if (strncmp(argv[i], "event=", 6) == 0 && strlen(argv[i]) < 100) {
            snprintf(key, sizeof key, "\"method\":\"%s\"", argv[i] + 6);
            event_key = key;
        } else if (strncmp(argv[i], "sparse=", 7) == 0 && atol(argv[i] + 7) >= 1) {
            sparse_gap = atol(argv[i] + 7);
        } else if (strncmp(argv[i], "hz=", 3) == 0 && atol(argv[i] + 3) >= 1 && atol(argv[i] + 3) <= 1000) {
            period_ms = 1000 / atol(argv[i] + 3);
        } else {
            usage = 1;
        }
    }
    if (usage) {
        fprintf(stderr, "usage: %s FIXES TIMEOUT_S [in-order] [event=METHOD] [hz=RATE] [sparse=GAP] < DESCRIPTORS\n", argv[0]);
        return 2;
    }
    long fixes = atol(argv[1]);
    double deadline = monotonic_seconds() + atof(argv[2]);
    static int descriptors[100000];
    int count = 0, fd;
    while (count < 100000 && scanf("%d", &fd) == 1) descriptors[count++] = fd;
    if (count < 1 || fixes < 1 || fixes > 10000000) {
        fprintf(stderr, "fanout-reader: no descriptors, or FIXES out of 1...10000000\n");
        return 2;
    }
    struct app *apps = calloc((size_t)count, sizeof *apps);
    double *latest = calloc((size_t)fixes, sizeof *latest);
    int poller = epoll_create1(0);
    if (!apps || !latest || poller < 0) {
        perror("fanout-reader");
        return 1;
    }
    for (int i = 0; i < count; i++) {
        apps[i].fd = descriptors[i];
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &apps[i]};
        if (epoll_ctl(poller, EPOLL_CTL_ADD, apps[i].fd, &event) != 0) {
            perror("fanout-reader: epoll_ctl");
            return 1;
        }
    }
    int done = 0;
    struct epoll_event ready[256];
    while (done < count && monotonic_seconds() < deadline) {
        int n = epoll_wait(poller, ready, 256, 500);
        if (n < 0 && errno != EINTR) {
            perror("fanout-reader: epoll_wait");
            return 1;
        }
        for (int i = 0; i < n; i++) {
            struct app *app = ready[i].data.ptr;
            if (app->used == sizeof app->partial) {
                fprintf(stderr, "fanout-reader: a line over %d bytes\n", LINE_MAX_BYTES);
                return 1;
            }
            ssize_t got = read(app->fd, app->partial + app->used, sizeof app->partial - app->used);
            double now = monotonic_seconds();
            if (got <= 0) {
                fprintf(stderr, "fanout-reader: descriptor %d closed\n", app->fd);
                return 1;
            }
            app->used += (size_t)got;
            take_lines(app, now, latest, fixes, &done);
        }
    }
    for (long i = 0; i < fixes; i++)
        if (latest[i] > 0) printf("%ld %.6f\n", i, latest[i]);
    int fewest = apps[0].fixes, most = apps[0].fixes;
    for (int i = 1; i < count; i++) {
        if (apps[i].fixes < fewest) fewest = apps[i].fixes;
        if (apps[i].fixes > most) most = apps[i].fixes;
    }
    fprintf(stderr, "counts %d %d\n", fewest, most);
    return done == count ? 0 : 3;
}
