// Issue 16: reading another process's per-thread kernel files from outside (collect's sampler):
// /proc/<pid>/task (which threads exist), <tid>/schedstat (on-CPU time, run-queue delay, times
// scheduled in), <tid>/syscall (asleep in which system call, user sp and pc), <tid>/stat
// (state letter, utime, stime, majflt, start time), and /proc/<pid>/pagemap (whether a page is
// in memory). The same files the collector's in-process sampler reads (collector/task_proc.h).
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace erkit::collect::outside {

struct SchedStat {
  uint64_t exec_ns = 0, delay_ns = 0, pcount = 0;
};
struct SyscallState {
  bool running = false;  // running or runnable
  int64_t nr = 0;        // system call, -1 outside one (a page fault, or stopped)
  uint64_t sp = 0, pc = 0;
};
struct TaskStat {
  char state = 0;
  uint64_t utime = 0, stime = 0, majflt = 0;  // ticks (USER_HZ), faults
  uint64_t start_ticks = 0;                   // since boot, USER_HZ
};

// Parsers of the files' text (unit-tested on captured contents).
std::optional<SchedStat> parse_schedstat(const char* text);
std::optional<SyscallState> parse_syscall(const char* text);
std::optional<TaskStat> parse_stat(const char* text);

// The per-thread files read at every look (schedstat, syscall) are kept open and read from
// offset 0 (an open of a /proc path costs more than the read), for as many threads as collect's
// descriptor limit leaves room for; a thread's are closed when it is no longer listed.
class ProcTask {
 public:
  explicit ProcTask(pid_t pid);
  ~ProcTask();
  ProcTask(const ProcTask&) = delete;
  ProcTask& operator=(const ProcTask&) = delete;
  pid_t pid() const { return pid_; }
  // Thread ids, empty when the process is gone.
  std::vector<uint32_t> tids() const;
  std::optional<SchedStat> schedstat(uint32_t tid) const;
  std::optional<SyscallState> syscall(uint32_t tid) const;
  std::optional<TaskStat> stat(uint32_t tid) const;
  // Whether the page holding addr is in memory (pagemap's "present" bit); nullopt if unknown.
  std::optional<bool> page_present(uint64_t addr) const;

 private:
  struct Kept {
    int schedstat = -1, syscall = -1;
  };
  bool read_kept(uint32_t tid, int Kept::*which, const char* name, char* buf, size_t cap) const;
  pid_t pid_;
  size_t max_kept_ = 0;
  mutable std::unordered_map<uint32_t, Kept> kept_;
};

}  // namespace erkit::collect::outside
