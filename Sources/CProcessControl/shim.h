// prctl(2) is variadic, which Swift cannot call: the two settings `sextantctl run` needs.
#include <sys/prctl.h>
#include <signal.h>

// This process adopts its orphaned descendants, so that it can stop them (PR_SET_CHILD_SUBREAPER).
static inline int sextant_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

// `signal` reaches this process when the thread that created it ends (PR_SET_PDEATHSIG).
static inline int sextant_set_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0); }
