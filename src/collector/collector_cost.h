// What the collector itself costs the process, measured where it is spent: time inside the
// clock-profiling signal handler, CPU time of the collector's helper threads, and of its start
// and exit work. Written on the exit line of the log, so every experiment says what recording it
// cost (er_print -header, bench/). Every function is async-signal-safe.
#pragma once
#include <stdint.h>

namespace erkit::collector {

class TextLine;

// One clock-profiling signal handled, `ns` spent inside the handler (monotonic_ns(), a vDSO
// read of ~20 ns, at entry and exit).
void cost_add_signal(uint64_t ns);
// A helper thread ends: its whole CPU time was the collector's. The _of form reads another,
// still running helper thread's clock.
void cost_add_helper_thread_cpu();
void cost_add_helper_thread_cpu_of(int tid);
// Java profiling: one Java stack taken (clock signal handler, traced call), `ns` inside AsyncGetCallTrace;
// CPU time of the Java agent's JVMTI callbacks (docs/java.md, Overhead).
void cost_add_java_stack(uint64_t ns);
void cost_add_java_agent(uint64_t cpu_ns);
// CPU time of the start and exit work (own_cpu_ns() differences).
void cost_add_start(uint64_t cpu_ns);
void cost_add_exit(uint64_t cpu_ns);
// Appends cost_* fields to a log line.
void cost_append(TextLine& line);
// A forked child starts from zero.
void cost_reset();

}  // namespace erkit::collector
