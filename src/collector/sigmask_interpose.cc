// sigprocmask / pthread_sigmask / sigsuspend interposition: the collector's signals are never
// blocked in the kernel (a program that blocks SIGPROF would otherwise silence its own
// profile), while the program's view of its mask stays exactly what it set: the old mask it
// reads back includes them, and its own instances of those signals are held until it unblocks
// them (signal_guard.cc). Exported unversioned, so both pthread_sigmask@GLIBC_2.2.5 and
// @GLIBC_2.32 references bind here.
#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/signal_guard.h"
#include "collector/thread_state.h"

namespace erkit::collector {
namespace {

uint64_t bit(int sig) { return uint64_t(1) << (sig - 1); }

// The collector's signals in `set`, as bits.
uint64_t owned_in(const sigset_t* set) {
  uint64_t bits = 0;
  if (!set) return 0;
  for (int sig = 1; sig <= 64; ++sig)
    if (collector_owns(sig) && sigismember(set, sig) == 1) bits |= bit(sig);
  return bits;
}

// Changes the mask like sigprocmask(how, set, old), keeping the collector's signals deliverable
// and maintaining the program's view of them. Returns 0 or an errno value.
int change_mask(int how, const sigset_t* set, sigset_t* old) {
  if (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK) return EINVAL;
  ThreadState* ts = g_rt.active ? current_thread() : nullptr;
  uint64_t requested = owned_in(set);
  if (!ts || (!requested && !ts->program_blocked)) {
    // Nothing of the collector's is involved: the program's call, unchanged.
    return real_sigprocmask(how, set, old) == 0 ? 0 : errno;
  }
  sigset_t filtered;
  const sigset_t* pass = set;
  if (set && how != SIG_UNBLOCK && requested) {
    filtered = *set;
    for (int sig = 1; sig <= 64; ++sig)
      if (requested & bit(sig)) sigdelset(&filtered, sig);
    pass = &filtered;
  }
  if (real_sigprocmask(how, pass, old) != 0) return errno;
  uint64_t before = ts->program_blocked;
  if (old) {
    for (int sig = 1; sig <= 64; ++sig)
      if (before & bit(sig)) sigaddset(old, sig);
  }
  if (set) {
    if (how == SIG_BLOCK) ts->program_blocked = before | requested;
    else if (how == SIG_UNBLOCK) ts->program_blocked = before & ~requested;
    else ts->program_blocked = requested;
  }
  if (ts->program_blocked & ~before) {
    for (int sig = 1; sig <= 64; ++sig)
      if ((ts->program_blocked & ~before) & bit(sig)) warn_interference_once(kWarnMask, sig);
  }
  if (before & ~ts->program_blocked) release_held_signals();
  return 0;
}

}  // namespace
}  // namespace erkit::collector

using erkit::collector::change_mask;

extern "C" __attribute__((visibility("default"))) int sigprocmask(int how, const sigset_t* set,
                                                                   sigset_t* old) {
  int rc = change_mask(how, set, old);
  if (rc == 0) return 0;
  errno = rc;
  return -1;
}

extern "C" __attribute__((visibility("default"))) int pthread_sigmask(int how, const sigset_t* set,
                                                                       sigset_t* old) {
  return change_mask(how, set, old);
}

// The temporary mask of sigsuspend must not block the collector's signals either, and it is
// the program's view of the mask while it waits: its own held signal that the temporary mask
// lets through is delivered at once and ends the wait, as the kernel would do.
extern "C" __attribute__((visibility("default"))) int sigsuspend(const sigset_t* mask) {
  using namespace erkit::collector;
  using Fn = int (*)(const sigset_t*);
  static Fn real = nullptr;
  if (!real) real = reinterpret_cast<Fn>(next_symbol("sigsuspend", nullptr));
  if (!real) {
    errno = ENOSYS;
    return -1;
  }
  // mask is declared nonnull; a null one still goes to the real function untouched.
  const sigset_t* volatile checked = mask;
  ThreadState* ts = g_rt.active && checked ? current_thread() : nullptr;
  if (!ts) return real(mask);
  uint64_t saved = ts->program_blocked;
  ts->program_blocked = owned_in(mask);
  sigset_t filtered = *mask;
  for (int sig = 1; sig <= 64; ++sig)
    if (collector_owns(sig)) sigdelset(&filtered, sig);
  bool held_released = false;
  for (const auto& h : ts->held) {
    int sig = __atomic_load_n(&h.sig, __ATOMIC_ACQUIRE);
    if (sig && !(ts->program_blocked & bit(sig))) held_released = true;
  }
  int rc;
  if (held_released) {
    release_held_signals();  // delivered on return from the queueing system call
    errno = EINTR;
    rc = -1;
  } else {
    rc = real(&filtered);
  }
  int saved_errno = errno;
  ts->program_blocked = saved;
  errno = saved_errno;
  return rc;
}
