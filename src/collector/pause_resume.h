// Pausing and resuming event recording (collect -y, collector_pause/collector_resume): while
// paused no event data are written, samples continue; a sample is recorded just before a
// pause and just after a resume (seed-spec §2.6, §4.1). Per-thread pausing is the
// ThreadState::paused flag (collector_thread_pause); data are written only when both allow it.
// Async-signal-safe: collection_pause(), collection_resume().
#pragma once
#include <stdint.h>

namespace erkit::collector {

// False when ignored: no experiment, or already in that state.
bool collection_pause(const char* why);
bool collection_resume(const char* why);
// collector_thread_pause/resume of a thread that has no slot yet: remembered here and taken
// by the slot when the thread claims it. Async-signal-safe.
void set_pending_thread_pause(uint32_t tid, int paused);
int take_pending_thread_pause(uint32_t tid);
// Installs the -y handler and applies the initial state (-y without ",r" starts paused).
void pause_resume_start();

}  // namespace erkit::collector
