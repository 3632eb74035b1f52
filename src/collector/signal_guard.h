// Protection of the collector's signals. The collector keeps its own handler installed for the
// signals it uses; when the program installs a handler for one of them, the program's handler
// is remembered and called for every signal that is not the collector's own.
// Async-signal-safe: forward_to_program_handler().
#pragma once
#include <signal.h>

namespace erkit::collector {

using SigactionFn = void (*)(int, siginfo_t*, void*);

bool install_collector_handler(int sig, SigactionFn fn);
bool collector_owns(int sig);
// Delivers a signal that was not the collector's to what the program asked for (its handler,
// ignore, or the default action).
void forward_to_program_handler(int sig, siginfo_t* si, void* uc);

}  // namespace erkit::collector
