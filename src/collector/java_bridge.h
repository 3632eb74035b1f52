// The collector's side of Java profiling (collect -j on; docs/java.md). libcollector-java.so,
// the JVMTI agent, registers a stack hook with erkit_java_attach(); the clock signal handler
// then appends the Java stack (AsyncGetCallTrace) of Java threads to the machine stack, and a
// status word for the JVM's other threads. Async-signal-safe.
#pragma once
#include <stdint.h>

#include "collector/thread_state.h"

namespace erkit::collector {

// Appends kJavaMarkerPc and the Java frames (or a status word) of the sampled thread to
// pcs[0..n); returns the new count (at most cap). Only when an agent is attached.
int java_append_stack(ThreadState* ts, void* ucontext, uint64_t* pcs, int n, int cap);
// True once the Java agent has attached in this process.
bool java_attached();
// How many machine frames to unwind: fewer once an agent is attached, leaving room for Java.
int java_machine_limit();
// Completes a stack of *n machine frames (truncated: the unwinder cut it) with the Java part
// when an agent is attached; returns whether stack_intern must still mark it truncated.
bool java_finish_stack(ThreadState* ts, void* ucontext, uint64_t* pcs, int* n, bool truncated);

}  // namespace erkit::collector
