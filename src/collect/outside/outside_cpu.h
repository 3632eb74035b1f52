// Issue 16: CPU-time samples of threads taken from outside the process: a perf task-clock
// event per thread (thread_clock.h), each sample unwound from its register and stack copy
// (remote_unwind.h) and written as a clock sample of one period's CPU time. Used by
// collect -P for every thread, and by the outside sampler for threads the collector never
// named (raw clone(), libc's internal threads), which no timer of the collector samples.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace erkit::collect::outside {

class OutsideFiles;
class RemoteUnwinder;
class ThreadClock;
struct CpuSample;

class OutsideCpu {
 public:
  // start_mono_ns: the experiment's start (samples' times count from it).
  OutsideCpu(pid_t pid, uint64_t interval_ns, uint64_t start_mono_ns, OutsideFiles& files, RemoteUnwinder& unwinder);
  ~OutsideCpu();
  // Opens the thread's event. False when it cannot be opened: *err is errno (ESRCH: the thread
  // is gone), *why its text. The first EACCES/EPERM retries in user mode only.
  // credit_ns: CPU time the thread used before, added to its first sample.
  bool add(uint32_t tid, std::string* why = nullptr, int* err = nullptr, uint64_t credit_ns = 0);
  bool has(uint32_t tid) const { return clocks_.count(tid) != 0; }
  size_t size() const { return clocks_.size(); }
  std::vector<uint32_t> tids() const;
  // Writes every sample waiting in the events' rings.
  void drain();
  // The thread is gone: its last samples are written, its event closed.
  void remove(uint32_t tid);
  // Stops sampling (every event disabled, drained, closed).
  void stop();
  bool user_only() const { return exclude_kernel_; }
  uint64_t samples() const { return samples_; }
  uint64_t lost() const { return lost_; }

 private:
  void write(const CpuSample& s);
  pid_t pid_;
  uint64_t interval_ns_, start_ns_;
  OutsideFiles& files_;
  RemoteUnwinder& unwinder_;
  std::map<uint32_t, std::unique_ptr<ThreadClock>> clocks_;
  bool exclude_kernel_ = false;
  uint64_t samples_ = 0, lost_ = 0;
  std::vector<uint64_t> pcs_;
  std::map<uint32_t, uint64_t> credit_;
};

}  // namespace erkit::collect::outside
