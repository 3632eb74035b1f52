#include "collector/signal_guard.h"

#include <string.h>
#include <unistd.h>

#include "collector/real_functions.h"
#include "collector/runtime.h"

namespace erkit::collector {
namespace {

constexpr int kMaxSig = 65;
bool g_owned[kMaxSig];
struct sigaction g_program[kMaxSig];  // what the program believes is installed

}  // namespace

bool collector_owns(int sig) { return sig > 0 && sig < kMaxSig && g_owned[sig]; }

bool install_collector_handler(int sig, SigactionFn fn) {
  resolve_real_functions();
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = fn;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (g_real.sigaction(sig, &sa, &old) != 0) return false;
  if (!g_owned[sig]) g_program[sig] = old;
  g_owned[sig] = true;
  return true;
}

void forward_to_program_handler(int sig, siginfo_t* si, void* uc) {
  const struct sigaction& p = g_program[sig];
  if (p.sa_flags & SA_SIGINFO) {
    if (p.sa_sigaction) p.sa_sigaction(sig, si, uc);
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
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    raise(sig);
    return;
  }
  p.sa_handler(sig);
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
    erkit::collector::log_warning("signal_handler",
                                  "the program installed a handler for a signal the collector uses; "
                                  "the collector forwards that signal to it");
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
