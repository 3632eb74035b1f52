// The granularity at which this kernel's CPU-time timers really expire (the scheduler tick on
// HZ-based kernels), measured, for `collect`'s usage text: clock-profiling samples arrive at
// most once per tick per thread whatever the requested interval; erkit weights each by the
// CPU time it stands for. See docs/clock-profiling.md.
#pragma once
#include <cstdint>

namespace erkit::collect {
// Spins up to 40 ms of CPU with a 50 µs thread CPU-time timer and returns the most common CPU
// time between its expiries (ns), or 0 if it cannot be measured.
uint64_t measure_cpu_timer_granularity_ns();
}  // namespace erkit::collect
