// Thread lifecycle hooks shared by the pthread_create trampoline, the runtime and the sampler.
#pragma once
#include <stdint.h>

namespace erkit::collector {
void threads_init();
// Called on a new thread before its start routine: stack bounds, exit hook, clock timer,
// microstate baseline. `created_ns`: CLOCK_MONOTONIC when pthread_create was called.
void thread_started(uintptr_t start_routine, uint64_t created_ns);
// Threads being created through the trampoline that have not registered yet (their tids may
// already be listed in /proc/self/task without a slot). Async-signal-safe.
int threads_pending_starts();
}  // namespace erkit::collector
