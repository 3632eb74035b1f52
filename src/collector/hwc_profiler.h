// Hardware-counter overflow profiling (collect -h, seed-spec §2.2) and the data addresses of
// dataspace profiling (`+`). Each counter is a perf event of its own thread (perf_event_open
// with pid = tid), its overflow delivered as kHwcSignal to that thread (F_SETOWN_EX) with the
// event's descriptor in si_fd; the handler drains the event's small ring buffer (the sampled
// IP, and the data address where the kernel gives one: PERF_SAMPLE_ADDR for page faults and
// PEBS/IBS/SPE), unwinds from the signal context and writes HwcEventRecords. Where no address
// is given, the interrupted context's general registers go into the record and the analysis
// decodes the instruction (docs/dataspace.md). Descriptors are the collector's (fd_owned.h).
#pragma once
#include <stdint.h>

namespace erkit::collector {

struct ThreadState;

// Reads ERKIT_HWC, installs the handler, opens the counters of the calling thread and of the
// threads that exist already. Not signal-safe.
bool hwc_init();
bool hwc_enabled();
// The calling (new) thread's counters. Not signal-safe.
void hwc_thread_start(ThreadState* ts);
// A thread the collector adopted (sampler, pre-existing threads): counters on its tid.
void hwc_adopt_tid(uint32_t tid);
// Counts since the last overflow (collector_final_counters), then closes the thread's counters.
void hwc_thread_end(ThreadState* ts);
// Every thread's final counts; closes everything (exit, exec).
void hwc_fini();
// In a forked child: the parent's events are not this process's; closes them without writing.
void hwc_forget_after_fork();

// Clock profiling with `+` (collect -p on,+): a dataspace record for a clock sample of `ns`
// nanoseconds, from the SIGPROF handler's context. Async-signal-safe.
bool hwc_clock_dataspace();
void hwc_clock_sample(ThreadState* ts, void* uc, uint64_t stack_id, uint64_t ns);

}  // namespace erkit::collector
