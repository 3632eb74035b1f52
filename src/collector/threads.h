// Thread lifecycle hooks shared by the pthread_create trampoline and the runtime.
#pragma once
#include <stdint.h>

namespace erkit::collector {
void threads_init();
// Called on a new thread before its start routine: stack bounds, exit hook, clock timer.
void thread_started(uintptr_t start_routine);
}  // namespace erkit::collector
