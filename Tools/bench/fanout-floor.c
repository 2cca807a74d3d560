/*
 * The floor under Tools/bench/bench-fanout.py's figures: a server that does nothing but the
 * writes sextantd does for that benchmark, to the same readers, so that the script can
 * print what a delivery costs Sextant beside what it costs at the least.
 *
 *   fanout-floor SOCKET APPS SECONDS LOCATION_LINE < /dev/null
 *
 * Listens on the Unix stream socket SOCKET, accepts APPS connections (a socket per app, as
 * app.sock), then prints "start MONOTONIC_SECONDS" on standard output: fix k is due at that
 * CLOCK_MONOTONIC second + k / 10 (the start is a second after the last accept, so that
 * the reader is running by then). From the start it wakes at 100 Hz, the accelerometer's
 * rate in the benchmark's trace, and
 * - every 10th tick writes a `location` event to every app, the line sextantd sends
 *   (LOCATION_LINE, one the benchmark's apps received, with its `time` and `lon` set to
 *   the fix's: the walk east of Tools/bench/bench-fanout.py's trace);
 * - at the start and every 4 s, when the trace's device turns, writes the
 *   `deviceOrientation` (and from the first turn on `interfaceOrientation`) events
 *   sextantd sends each app that called orientation.start.
 * Each line is one write(2) per app, blocking, in the order the apps connected, as
 * sextantd writes to each app's socket. After SECONDS it prints "cpu SECONDS" (its own
 * user + system time) and exits once every app has closed its connection.
 *
 * No JSON is parsed or built beyond copying the template: the floor is the system calls
 * and the kernel's socket wake-ups, which any fan-out pays.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define LINE_BYTES 4096

static double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_until(double when) {
    struct timespec ts = {.tv_sec = (time_t)when, .tv_nsec = (long)((when - (double)(time_t)when) * 1e9)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t wrote = write(fd, bytes, length);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) {
            perror("fanout-floor: write");
            exit(1);
        }
        bytes += wrote;
        length -= (size_t)wrote;
    }
}

static void write_everyone(const int *apps, int count, const char *line, size_t length) {
    for (int i = 0; i < count; i++) write_all(apps[i], line, length);
}

/* The template with its `"time":"..."` and `"lon":NUMBER` values replaced by fix k's. */
static size_t location_line(char *out, const char *template, long k) {
    const char *time_at = strstr(template, "\"time\":\"");
    const char *lon_at = strstr(template, "\"lon\":");
    if (!time_at || !lon_at || lon_at > time_at) {
        fprintf(stderr, "fanout-floor: the location line needs \"lon\": before \"time\":\n");
        exit(2);
    }
    long tenths = k % 864000;
    long day = 1 + k / 864000, seconds = tenths / 10;
    const char *lon_end = lon_at + 6 + strspn(lon_at + 6, "-+.0123456789eE");
    const char *time_end = strchr(time_at + 8, '"');
    int n = snprintf(out, LINE_BYTES, "%.*s\"lon\":%.15g%.*s\"time\":\"2026-03-%02ld"
                     "T%02ld:%02ld:%02ld.%ld00Z%s\n",
                     (int)(lon_at - template), template, 2.29 + (double)k / 10 * 1e-5,
                     (int)(time_at - lon_end), lon_end,
                     day, 8 + seconds / 3600, seconds / 60 % 60, seconds % 60, tenths % 10, time_end);
    if (n < 0 || n >= LINE_BYTES) {
        fprintf(stderr, "fanout-floor: the location line is too long\n");
        exit(2);
    }
    return (size_t)n;
}

static void write_turn(const int *apps, int count, long tick) {
    static char device[512], interface[512];
    int upright = (tick / 400) % 2 == 0;
    /* The first reading sets the device's orientation from unknown; the interface, already
     * portrait, turns only from the first turn on. */
    const char *now = upright ? "portrait" : "landscapeRight";
    const char *before = tick < 400 ? "unknown" : upright ? "landscapeRight" : "portrait";
    long tenths = tick / 10, seconds = tenths / 10;
    int d = snprintf(device, sizeof device, "{\"jsonrpc\":\"2.0\",\"method\":\"deviceOrientation\",\"params\":{"
                     "\"orientation\":\"%s\",\"previous\":\"%s\",\"time\":\"2026-03-01T%02ld:%02ld:%02ld.%03ldZ\"}}\n",
                     now, before, 8 + seconds / 3600, seconds / 60 % 60, seconds % 60, (tick % 100) * 10);
    int i = snprintf(interface, sizeof interface, "{\"jsonrpc\":\"2.0\",\"method\":\"interfaceOrientation\",\"params\":{"
                     "\"orientation\":\"%s\",\"previous\":\"%s\"}}\n", now, before);
    write_everyone(apps, count, device, (size_t)d);
    if (tick >= 400) write_everyone(apps, count, interface, (size_t)i);
}

static int accept_apps(const char *path, int *apps, int count) {
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (listener < 0 || strlen(path) >= sizeof address.sun_path) return -1;
    strcpy(address.sun_path, path);
    unlink(path);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 4096) != 0) return -1;
    for (int i = 0; i < count; i++)
        if ((apps[i] = accept(listener, NULL, NULL)) < 0) return -1;
    close(listener);
    return 0;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 5 || atoi(argv[2]) < 1 || atoi(argv[2]) > 100000 || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: %s SOCKET APPS SECONDS LOCATION_LINE\n", argv[0]);
        return 2;
    }
    int count = atoi(argv[2]);
    long ticks = atol(argv[3]) * 100L;
    int *apps = calloc((size_t)count, sizeof *apps);
    if (!apps || accept_apps(argv[1], apps, count) != 0) {
        perror("fanout-floor");
        return 1;
    }
    double start = monotonic_seconds() + 1.0;
    printf("start %.6f\n", start);
    fflush(stdout);
    double cpu_before = cpu_seconds();
    static char line[LINE_BYTES];
    for (long tick = 0; tick < ticks; tick++) {
        sleep_until(start + (double)tick / 100);
        if (tick % 10 == 0) write_everyone(apps, count, line, location_line(line, argv[4], tick / 10));
        if (tick % 400 == 5) write_turn(apps, count, tick);
    }
    printf("cpu %.6f\n", cpu_seconds() - cpu_before);
    fflush(stdout);
    /* The readers close when done; their sockets stay open until then. */
    char byte;
    for (int i = 0; i < count; i++) while (read(apps[i], &byte, 1) > 0) {}
    return 0;
}
