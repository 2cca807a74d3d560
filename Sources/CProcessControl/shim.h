// prctl(2) is variadic, which Swift cannot call: the two settings `sextantctl run` needs,
// and the launch of a child that must die with its parent (`sextant-browser --launch`).
#include <sys/prctl.h>
#include <signal.h>

// This process adopts its orphaned descendants, so that it can stop them (PR_SET_CHILD_SUBREAPER).
static inline int sextant_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

// `signal` reaches this process when the thread that created it ends (PR_SET_PDEATHSIG).
static inline int sextant_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0); }

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

// Starts `path` (argv, the environment as it is) with `commands` as its descriptor 3 and
// `answers` as its 4 (Chromium's --remote-debugging-pipe), 0 to 2 on /dev/null, every other
// descriptor closed, in a process group of its own, sent `death_signal` when the calling
// thread ends (PR_SET_PDEATHSIG: the caller's thread must live as long as the child).
// The parent's pid or -1 with errno. Between fork and exec the child makes only
// async-signal-safe calls: the parent has other threads.
static inline pid_t sextant_spawn_with_pipe(const char *path, char *const argv[], int commands, int answers, int death_signal) {
    pid_t parent = getpid();
    pid_t child = fork();
    if (child != 0) return child;
    // Dead already before the setting took: the signal would never come.
    if (prctl(PR_SET_PDEATHSIG, (unsigned long)death_signal, 0, 0, 0) != 0 || getppid() != parent) _exit(127);
    setpgid(0, 0);
    int null = open("/dev/null", O_RDWR);
    // Moved above 4 first: either end may itself be 3 or 4.
    int high_commands = fcntl(commands, F_DUPFD, 10), high_answers = fcntl(answers, F_DUPFD, 10);
    if (null < 0 || high_commands < 0 || high_answers < 0) _exit(127);
    if (dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) _exit(127);
    if (dup2(high_commands, 3) < 0 || dup2(high_answers, 4) < 0) _exit(127);
    if (syscall(SYS_close_range, 5U, ~0U, 0U) != 0) {
        for (int fd = 5; fd < 65536; fd++) close(fd);
    }
    execv(path, argv);
    _exit(127);
}
