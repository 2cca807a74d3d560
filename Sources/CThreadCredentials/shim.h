// The calling thread's own filesystem ids, through raw system calls: the kernel keeps
// them per thread, but glibc's setgroups(3) changes every thread of the process, and
// syscall(2) is variadic, which Swift cannot call.
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static inline long sextant_thread_setgroups(size_t count, const gid_t *groups) {
    return syscall(SYS_setgroups, count, groups);
}

/// Sets this thread's filesystem uid; answers the one it had (setfsuid(2)).
static inline long sextant_thread_setfsuid(uid_t uid) { return syscall(SYS_setfsuid, uid); }

/// Sets this thread's filesystem gid; answers the one it had (setfsgid(2)).
static inline long sextant_thread_setfsgid(gid_t gid) { return syscall(SYS_setfsgid, gid); }
