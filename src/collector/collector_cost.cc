#include "collector/collector_cost.h"

#include <sys/resource.h>

#include "collector/task_proc.h"
#include "collector/text_line.h"
#include "format/experiment_format.h"
#include "format/java_cost_keys.h"

namespace erkit::collector {
namespace {

// Relaxed atomics: totals read once, at exit, after the threads that add to them stopped.
struct Totals {
  uint64_t signal_ns, signals, helper_cpu_ns, start_cpu_ns, exit_cpu_ns;
  uint64_t java_stacks, java_stack_ns, java_agent_cpu_ns;
};
Totals g;

void add(uint64_t* total, uint64_t ns) { __atomic_fetch_add(total, ns, __ATOMIC_RELAXED); }
int64_t get(const uint64_t* total) { return int64_t(__atomic_load_n(total, __ATOMIC_RELAXED)); }

}  // namespace

void cost_add_signal(uint64_t ns) {
  add(&g.signal_ns, ns);
  add(&g.signals, 1);
}

void cost_add_helper_thread_cpu() { add(&g.helper_cpu_ns, own_cpu_ns()); }

void cost_add_helper_thread_cpu_of(int tid) {
  if (tid > 0) add(&g.helper_cpu_ns, cpu_time_of(uint32_t(tid)));
}

void cost_add_java_stack(uint64_t ns) {
  add(&g.java_stack_ns, ns);
  add(&g.java_stacks, 1);
}

void cost_add_java_agent(uint64_t cpu_ns) { add(&g.java_agent_cpu_ns, cpu_ns); }

void cost_add_start(uint64_t cpu_ns) { add(&g.start_cpu_ns, cpu_ns); }
void cost_add_exit(uint64_t cpu_ns) { add(&g.exit_cpu_ns, cpu_ns); }

void cost_append(TextLine& line) {
  line.kv_dec(format::kCostSignals, get(&g.signals));
  line.kv_dec(format::kCostSignalNs, get(&g.signal_ns));
  line.kv_dec(format::kCostHelperCpuNs, get(&g.helper_cpu_ns));
  line.kv_dec(format::kCostStartCpuNs, get(&g.start_cpu_ns));
  line.kv_dec(format::kCostExitCpuNs, get(&g.exit_cpu_ns));
  if (get(&g.java_stacks) || get(&g.java_agent_cpu_ns)) {  // a JVM with the Java agent
    line.kv_dec(format::kCostJavaStacks, get(&g.java_stacks));
    line.kv_dec(format::kCostJavaStackNs, get(&g.java_stack_ns));
    line.kv_dec(format::kCostJavaAgentCpuNs, get(&g.java_agent_cpu_ns));
  }
  // The whole process's CPU time so far, collector included: what the costs compare with.
  rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) == 0)
    line.kv_dec(format::kCostProcessCpuNs, (int64_t(ru.ru_utime.tv_sec) + int64_t(ru.ru_stime.tv_sec)) * 1000000000ll +
                                               (int64_t(ru.ru_utime.tv_usec) + int64_t(ru.ru_stime.tv_usec)) * 1000ll);
}

// In a forked child, before any of its threads or signals exist.
void cost_reset() { g = Totals{}; }

}  // namespace erkit::collector
