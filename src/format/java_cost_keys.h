// Keys of the log's exit line that say what Java profiling cost the process (beside the
// cost_* keys of experiment_format.h; collector_cost.cc writes them only in a JVM with the Java
// agent; docs/experiment-format.md, docs/java.md *Overhead*): the Java stacks taken (clock
// signal handlers and traced calls: how many, and the wall time inside AsyncGetCallTrace, a
// clock sample's part of its cost_signal_ns), and the CPU time of the JVMTI agent's callbacks
// (classes, compiled methods, generated code, threads).
#pragma once

namespace erkit::format {
inline constexpr const char* kCostJavaStacks = "cost_java_stacks";
inline constexpr const char* kCostJavaStackNs = "cost_java_stack_ns";
inline constexpr const char* kCostJavaAgentCpuNs = "cost_java_agent_cpu_ns";
}  // namespace erkit::format
