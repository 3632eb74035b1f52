#include "collector/signal_guard.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

constexpr int kMaxSig = 65;
bool g_owned[kMaxSig];
struct sigaction g_program[kMaxSig];  // what the program believes is installed
int g_warned[kWarnKinds];              // atomic flags
using SigprocmaskFn = int (*)(int, const sigset_t*, sigset_t*);
SigprocmaskFn g_real_sigprocmask;

const char* const kWarnCodes[kWarnKinds] = {"signal_handler", "signal_mask", "signal_timer",
                                             "signal_held"};
const char* const kWarnTexts[kWarnKinds] = {
    "the program installed a handler for a signal the collector uses; the collector stays "
    "installed and forwards the program's own signals to it",
    "the program blocked a signal the collector uses; the collector keeps it unblocked for its "
    "own samples and holds the program's own signals until the program unblocks it",
    "the program runs its own timer (setitimer/timer_create) on a signal the collector uses; "
    "its signals are forwarded to it",
    "a signal for the program arrived while the program had it blocked; it was held and "
    "delivered when the program unblocked it",
};

uint64_t bit(int sig) { return uint64_t(1) << (sig - 1); }

}  // namespace

int real_sigprocmask(int how, const sigset_t* set, sigset_t* old) {
  if (!g_real_sigprocmask)
    g_real_sigprocmask = reinterpret_cast<SigprocmaskFn>(next_symbol("sigprocmask", nullptr));
  if (g_real_sigprocmask) return g_real_sigprocmask(how, set, old);
  return int(syscall(SYS_rt_sigprocmask, how, set, old, _NSIG / 8));
}

bool collector_owns(int sig) { return sig > 0 && sig < kMaxSig && g_owned[sig]; }

bool install_collector_handler(int sig, SigactionFn fn) {
  resolve_real_functions();
  real_sigprocmask(SIG_BLOCK, nullptr, nullptr);  // resolves the pointer from a normal context
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = fn;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (g_real.sigaction(sig, &sa, &old) != 0) return false;
  if (!g_owned[sig]) g_program[sig] = old;
  g_owned[sig] = true;
  // The collector's signal must reach every thread: unblock it here (threads created later
  // inherit this mask), remembering that the program had it blocked.
  sigset_t set, was;
  sigemptyset(&set);
  sigaddset(&set, sig);
  if (real_sigprocmask(SIG_UNBLOCK, &set, &was) == 0 && sigismember(&was, sig)) {
    if (ThreadState* ts = current_thread()) ts->program_blocked |= bit(sig);
  }
  return true;
}

void warn_interference_once(InterferenceKind kind, int sig) {
  if (kind < 0 || kind >= kWarnKinds) return;
  if (__atomic_exchange_n(&g_warned[kind], 1, __ATOMIC_ACQ_REL)) return;
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), logev::kWarning).kv(logkey::kCode, kWarnCodes[kind]).kv_dec(logkey::kSignal, sig);
  line.kv_quoted(logkey::kText, kWarnTexts[kind]).write_to(g_rt.log_fd);
}

void deliver_to_program(int sig, siginfo_t* si, void* uc) {
  if (si && sig == SIGPROF && (si->si_code == SI_TIMER || si->si_code == SI_KERNEL))
    warn_interference_once(kWarnTimer, sig);
  ThreadState* ts = current_thread_if_any();
  if (ts && sig > 0 && sig < kMaxSig && (ts->program_blocked & bit(sig))) {
    // Held like the kernel would keep it pending: one instance per signal.
    for (auto& h : ts->held) {
      if (h.sig == sig) return;
    }
    for (auto& h : ts->held) {
      if (h.sig == 0) {
        if (si) h.info = *si;
        else memset(&h.info, 0, sizeof h.info);
        h.info.si_signo = sig;
        __atomic_store_n(&h.sig, sig, __ATOMIC_RELEASE);
        warn_interference_once(kWarnHeld, sig);
        return;
      }
    }
    return;
  }
  forward_to_program_handler(sig, si, uc);
}

void release_held_signals() {
  ThreadState* ts = current_thread_if_any();
  if (!ts) return;
  for (auto& h : ts->held) {
    int sig = __atomic_load_n(&h.sig, __ATOMIC_ACQUIRE);
    if (sig == 0 || (ts->program_blocked & bit(sig))) continue;
    siginfo_t info = h.info;
    __atomic_store_n(&h.sig, 0, __ATOMIC_RELEASE);
    // Queued again to this very thread, with its original siginfo (allowed for one's own
    // process): the collector's handler sees it is not its own and forwards it.
    syscall(SYS_rt_tgsigqueueinfo, getpid(), ts->tid, sig, &info);
  }
}

void forward_to_program_handler(int sig, siginfo_t* si, void* uc) {
  struct sigaction& p = g_program[sig];
  if (p.sa_flags & SA_SIGINFO) {
    auto fn = p.sa_sigaction;
    if (p.sa_flags & SA_RESETHAND) p.sa_handler = SIG_DFL, p.sa_flags &= ~SA_SIGINFO;
    if (fn) fn(sig, si, uc);
    return;
  }
  if (p.sa_handler == SIG_IGN) return;
  if (p.sa_handler == SIG_DFL) {
    // Default action of the collector's signals (SIGPROF, SIGUSR1/2...) ends the process:
    // do exactly that, as if the collector were not there.
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    g_real.sigaction(sig, &dfl, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    real_sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(sig);
    return;
  }
  auto fn = p.sa_handler;
  if (p.sa_flags & SA_RESETHAND) p.sa_handler = SIG_DFL;
  fn(sig);
}

}  // namespace erkit::collector

using erkit::collector::collector_owns;
using erkit::collector::g_real;

// Interposed: the program sees its own view of the collector's signals.
extern "C" __attribute__((visibility("default"))) int sigaction(int sig, const struct sigaction* act,
                                                                 struct sigaction* old) {
  erkit::collector::resolve_real_functions();
  if (!collector_owns(sig)) return g_real.sigaction(sig, act, old);
  if (old) *old = erkit::collector::g_program[sig];
  if (act) {
    erkit::collector::g_program[sig] = *act;
    if (act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN)
      erkit::collector::warn_interference_once(erkit::collector::kWarnHandler, sig);
  }
  return 0;
}

extern "C" __attribute__((visibility("default"))) sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(sig, &sa, &old) != 0) return SIG_ERR;
  return old.sa_handler;
}
