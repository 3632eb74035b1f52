#include "collector/collector_cost.h"

#include <sys/resource.h>
#include <time.h>

#include "collector/task_proc.h"
#include "collector/text_line.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {

// Relaxed atomics: totals read once, at exit, after the threads that add to them stopped.
uint64_t g_signal_ns, g_signals, g_helper_cpu_ns, g_start_cpu_ns, g_exit_cpu_ns;

uint64_t read_clock(clockid_t c) {
  timespec t;
  if (clock_gettime(c, &t) != 0) return 0;
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

}  // namespace

uint64_t cost_clock_ns() { return read_clock(CLOCK_MONOTONIC); }

void cost_add_signal(uint64_t ns) {
  __atomic_fetch_add(&g_signal_ns, ns, __ATOMIC_RELAXED);
  __atomic_fetch_add(&g_signals, 1, __ATOMIC_RELAXED);
}

uint64_t cost_thread_cpu_ns() { return read_clock(CLOCK_THREAD_CPUTIME_ID); }

void cost_add_helper_thread_cpu() {
  __atomic_fetch_add(&g_helper_cpu_ns, cost_thread_cpu_ns(), __ATOMIC_RELAXED);
}

void cost_add_helper_thread_cpu_of(int tid) {
  if (tid > 0) __atomic_fetch_add(&g_helper_cpu_ns, read_clock(thread_cpu_clock(tid)), __ATOMIC_RELAXED);
}

void cost_add_start(uint64_t cpu_ns) { __atomic_fetch_add(&g_start_cpu_ns, cpu_ns, __ATOMIC_RELAXED); }
void cost_add_exit(uint64_t cpu_ns) { __atomic_fetch_add(&g_exit_cpu_ns, cpu_ns, __ATOMIC_RELAXED); }

void cost_append(TextLine& line) {
  line.kv_dec(format::kCostSignals, int64_t(__atomic_load_n(&g_signals, __ATOMIC_RELAXED)));
  line.kv_dec(format::kCostSignalNs, int64_t(__atomic_load_n(&g_signal_ns, __ATOMIC_RELAXED)));
  line.kv_dec(format::kCostHelperCpuNs, int64_t(__atomic_load_n(&g_helper_cpu_ns, __ATOMIC_RELAXED)));
  line.kv_dec(format::kCostStartCpuNs, int64_t(__atomic_load_n(&g_start_cpu_ns, __ATOMIC_RELAXED)));
  line.kv_dec(format::kCostExitCpuNs, int64_t(__atomic_load_n(&g_exit_cpu_ns, __ATOMIC_RELAXED)));
  // The whole process's CPU time so far, collector included: what the costs compare with.
  rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) == 0)
    line.kv_dec(format::kCostProcessCpuNs, (int64_t(ru.ru_utime.tv_sec) + int64_t(ru.ru_stime.tv_sec)) * 1000000000ll +
                                      (int64_t(ru.ru_utime.tv_usec) + int64_t(ru.ru_stime.tv_usec)) * 1000ll);
}

void cost_reset() {
  __atomic_store_n(&g_signal_ns, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_signals, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_helper_cpu_ns, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_start_cpu_ns, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_exit_cpu_ns, 0, __ATOMIC_RELAXED);
}

}  // namespace erkit::collector
