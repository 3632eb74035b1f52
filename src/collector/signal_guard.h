// Protection of the collector's signals. The collector keeps its own handler installed for the
// signals it uses, and keeps them unblocked in every thread; the program sees the handler and
// the mask it asked for (sigaction/signal and sigprocmask/pthread_sigmask are interposed), and
// receives every such signal that is not the collector's own: at once if its view of the mask
// lets it through, or when it unblocks the signal (the signal is held meanwhile).
// Every interference (the program installs a handler, blocks the signal, or runs its own
// timer on it) is recorded once per kind as a warning in the experiment log.
// Async-signal-safe: deliver_to_program(), forward_to_program_handler(), collector_owns().
#pragma once
#include <signal.h>

namespace erkit::collector {

using SigactionFn = void (*)(int, siginfo_t*, void*);

bool install_collector_handler(int sig, SigactionFn fn);
bool collector_owns(int sig);
// A signal that was not the collector's: delivered to the program now, or held until the
// program unblocks it on this thread.
void deliver_to_program(int sig, siginfo_t* si, void* uc);
// Delivers a signal to what the program asked for (its handler, ignore, or the default action).
void forward_to_program_handler(int sig, siginfo_t* si, void* uc);
// Records a warning the first time something of `kind` happens (kind < kWarnKinds).
enum InterferenceKind { kWarnHandler = 0, kWarnMask, kWarnTimer, kWarnHeld, kWarnKinds };
void warn_interference_once(InterferenceKind kind, int sig);
// Sends the signals held for the calling thread that its program mask no longer blocks.
void release_held_signals();
// The real sigprocmask (the collector's own calls must not go through its interposer).
int real_sigprocmask(int how, const sigset_t* set, sigset_t* old);

}  // namespace erkit::collector
