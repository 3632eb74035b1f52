// Issue 16, collect -P: the CPU-time samples of a process collect attached to, taken from
// outside. Each thread gets its own perf software `task-clock` event (sample_period = the clock
// interval, so the requested rate exactly) whose samples carry the user registers and a copy of
// the top of the user stack; collect drains the ring buffer and unwinds the copy with the same
// libdw CFI unwinder as sleeping threads (remote_unwind.h). Nothing is loaded into the target,
// no signal is sent to it.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace erkit::collect::outside {

// One CPU sample: the thread, when (CLOCK_MONOTONIC ns), the CPU time it stands for, whether it
// was taken in the kernel, and the user registers (DWARF numbering, x86-64: 0..16, 16 = rip)
// with the copied stack from `sp` upward.
struct CpuSample {
  uint32_t tid = 0;
  uint64_t time_ns = 0, period_ns = 0;
  bool kernel = false;
  bool has_regs = false;
  uint64_t dwarf_regs[17] = {};
  uint32_t valid_regs = 0;  // bit i: dwarf_regs[i] is set
  const uint8_t* stack = nullptr;
  uint64_t stack_size = 0;
};

// Parses a PERF_RECORD_SAMPLE body of the layout ThreadClock asks for (exposed for tests).
bool parse_cpu_sample(const uint8_t* p, size_t n, CpuSample* out);

class ThreadClock {
 public:
  // exclude_kernel: for users whose perf_event_paranoid allows user-mode events only.
  ThreadClock(uint32_t tid, uint64_t period_ns, bool exclude_kernel);
  ~ThreadClock();
  ThreadClock(const ThreadClock&) = delete;
  ThreadClock& operator=(const ThreadClock&) = delete;
  bool ok() const { return ring_ != nullptr; }
  int errno_value() const { return errno_; }
  const std::string& error() const { return error_; }
  void disable();
  // Every complete sample; returns the number of samples the kernel lost (ring full).
  uint64_t drain(const std::function<void(const CpuSample&)>& fn);

 private:
  int fd_ = -1;
  void* ring_ = nullptr;
  size_t ring_bytes_ = 0, data_bytes_ = 0;
  int errno_ = 0;
  std::string error_;
  std::vector<uint8_t> rec_;
};

// Whether collect can sample another process's threads from outside on this machine (x86-64
// only: the register layout of the samples).
bool thread_clock_supported();

}  // namespace erkit::collect::outside
