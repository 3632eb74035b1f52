// Reading the kernel's per-thread files of the collector's own process without allocating:
// /proc/self/task (which threads exist), <tid>/schedstat (on-CPU time, run-queue delay,
// times scheduled in), <tid>/syscall (whether the thread is off the CPU, in which system call,
// and its user stack and instruction pointers), <tid>/stat (scheduler state letter).
// Reads go through file descriptors the caller keeps open (pread at offset 0 regenerates the
// file: ~1 µs for schedstat, ~2 µs for syscall, against ~5 µs for open+read+close).
// System calls only (no allocation, no locks); meant for the sampler's normal context.
#pragma once
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

namespace erkit::collector {

// The kernel's clock id of another thread's CPU time (MAKE_THREAD_CPUCLOCK(tid, SCHED)).
inline clockid_t thread_cpu_clock(pid_t tid) { return clockid_t((~unsigned(tid)) << 3) | 6; }

// A clock's reading in nanoseconds; false when it cannot be read (the thread of a CPU clock ended).
inline bool clock_ns(clockid_t c, uint64_t* ns) {
  timespec t;
  if (clock_gettime(c, &t) != 0) return false;
  *ns = uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
  return true;
}

// CPU time of the calling thread, or of another thread of the process; 0 when unreadable.
inline uint64_t own_cpu_ns() {
  uint64_t ns = 0;
  return clock_ns(CLOCK_THREAD_CPUTIME_ID, &ns) ? ns : 0;
}
inline uint64_t cpu_time_of(uint32_t tid) {
  uint64_t ns = 0;
  return clock_ns(thread_cpu_clock(pid_t(tid)), &ns) ? ns : 0;
}

// Opens /proc/self/task/<tid>/<name> read-only, close-on-exec; -1 on failure.
int open_task_file(uint32_t tid, const char* name);

struct SchedStat {
  uint64_t exec_ns;   // time on a CPU (the scheduler's sum_exec_runtime)
  uint64_t delay_ns;  // time runnable but waiting on a run queue (only complete once it runs)
  uint64_t pcount;    // times it was scheduled in
};
bool read_schedstat(int fd, SchedStat* out);

struct SyscallState {
  bool running;  // running or runnable: the kernel reports nothing else
  int64_t nr;    // system call number, -1 when sleeping outside a system call (page fault)
  uint64_t sp, pc;  // user stack pointer and instruction pointer where it left user mode
};
bool read_syscall(int fd, SyscallState* out);

// The state letter of /proc/self/task/<tid>/stat (R, S, D, T, t, Z...), 0 if unreadable.
char read_task_state(uint32_t tid);
// utime and stime of /proc/self/task/<tid>/stat, in clock ticks (USER_HZ).
bool read_task_times(uint32_t tid, uint64_t* utime, uint64_t* stime);
// majflt of /proc/self/task/<tid>/stat: the major page faults the thread has taken.
bool read_task_majflt(uint32_t tid, uint64_t* majflt);
// The blocked-signal mask (SigBlk of /proc/self/task/<tid>/status): bit n-1 = signal n.
bool read_task_sigblk(uint32_t tid, uint64_t* mask);

// Calls fn for every thread of the process, in directory order. Returns false if
// /proc/self/task cannot be read.
bool for_each_task(void (*fn)(uint32_t tid, void* arg), void* arg);

// Under qemu-user /proc/self/task also lists the emulator's own threads (its RCU thread), which
// run host code and exist before the collector starts (docs/platforms.md). Called once at the
// start of an emulated process: every thread but `self` that exists then is taken to be
// qemu's, and is neither adopted nor profiled.
void note_emulator_threads(uint32_t self);
bool is_emulator_thread(uint32_t tid);

}  // namespace erkit::collector
