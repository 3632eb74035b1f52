// The collector's sampler thread (sampler_thread.cc): it looks at every thread's microstates
// (microstates.h) once per clock interval, adopts threads that did not start through the
// pthread_create trampoline, retires the slots of threads that ended unseen, and takes the
// periodic samples while it runs. Issue 18: split from microstates.h, where these were declared
// although sampler_thread.cc defines them; renamed from microstates_start, _stop, _running,
// _note_thread_end and _forget_after_fork, which remain below as inline forwarders.
#pragma once
#include <stdint.h>

namespace erkit::collector {

// Starts the sampler thread. Call once after the calling thread and the pre-existing threads
// have their baselines.
void sampler_thread_start();
// Stops the sampler thread (waits for its current pass to end, at most ~0.5 s).
void sampler_thread_stop();
// Async-signal-safe. A thread that ended through the trampoline (its slot is released) stays
// listed in /proc/self/task until the kernel (or qemu-user, for much longer) is done with it:
// the sampler's scan must not adopt it as a new thread (sampler_thread.cc).
void sampler_thread_note_thread_end(uint32_t tid);
// In a fork child, before its experiment starts: forgets the parent's sampler and closes every
// track (sampler_thread.cc; calls microstates_forget_tracks()).
void sampler_thread_forget_after_fork();
// Whether the sampler thread runs in this process (it also takes the periodic samples then).
bool sampler_thread_running();

// The former names (forwarders for code written against them).
inline void microstates_start() { sampler_thread_start(); }
inline void microstates_stop() { sampler_thread_stop(); }
inline void microstates_note_thread_end(uint32_t tid) { sampler_thread_note_thread_end(tid); }
inline void microstates_forget_after_fork() { sampler_thread_forget_after_fork(); }
inline bool microstates_running() { return sampler_thread_running(); }

}  // namespace erkit::collector
