// perf_event_open(2) events and their mmap'ed ring buffers: the kernel writes samples there,
// er_kernel drains them from its own thread (no signals reach any profiled process).
#pragma once
#include <linux/perf_event.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace erkit::kernel {

// One sample as er_kernel uses it (fields present per the event's sample_type).
struct PerfSample {
  uint16_t misc = 0;  // header.misc: PERF_RECORD_MISC_KERNEL / _USER
  uint64_t ip = 0;
  uint32_t pid = 0, tid = 0;
  uint64_t time = 0;  // CLOCK_MONOTONIC (use_clockid)
  uint32_t cpu = 0;
  uint64_t period = 0;
  std::vector<uint64_t> callchain;  // kernel part, leaf first, context markers removed
  std::vector<uint64_t> user_chain; // user part (only when asked for)
  std::vector<uint8_t> raw;         // tracepoint data
};

class PerfEvent {
 public:
  // Opens the event (pid, cpu as perf_event_open takes them) with a ring of 2^pages_log2 data
  // pages. On failure ok() is false and error() holds errno's text; errno_value() the number.
  PerfEvent(perf_event_attr attr, int pid, int cpu, int pages_log2);
  ~PerfEvent();
  PerfEvent(const PerfEvent&) = delete;
  PerfEvent& operator=(const PerfEvent&) = delete;
  bool ok() const { return fd_ >= 0 && ring_ != nullptr; }
  const std::string& error() const { return error_; }
  int errno_value() const { return errno_; }
  int fd() const { return fd_; }
  bool enable();
  void disable();
  // Sets a tracepoint filter (PERF_EVENT_IOC_SET_FILTER); false if the kernel refuses it.
  bool set_filter(const std::string& filter);
  // Reads every complete record; calls fn for each sample. Returns records lost (PERF_RECORD_LOST).
  uint64_t drain(const std::function<void(const PerfSample&)>& fn);

 private:
  perf_event_attr attr_;
  int fd_ = -1;
  void* ring_ = nullptr;
  size_t ring_bytes_ = 0, data_bytes_ = 0;
  std::string error_;
  int errno_ = 0;
  std::vector<uint8_t> rec_;
};

// Parses a sample record body per sample_type (exposed for tests).
bool parse_sample(const uint8_t* p, size_t n, uint64_t sample_type, PerfSample* out);

}  // namespace erkit::kernel
