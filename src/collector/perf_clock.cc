#include "collector/perf_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector/fd_owned.h"
#include "collector/runtime.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"

namespace erkit::collector {
namespace {

constexpr int kTableSize = kOwnedFdBase + kOwnedFdSpan;

// The descriptor number each event had when its signal was set up (the kernel's fasync entry
// keeps that number as si_fd even if the program's dup2 later moves the descriptor), mapped to
// the slot it belongs to. Entries are never cleared: a signal of an event stopped meanwhile is
// still recognised as the collector's and dropped, never handed to the program.
ThreadState* g_by_fd[kTableSize];  // atomic
int g_state = 0;                   // 0: not decided, 1: perf events, 2: POSIX timers
int g_warned = 0;                  // atomic
uint64_t g_dev = 0, g_ino = 0;     // identity of perf event descriptors (one anonymous inode)

bool identity(int fd, uint64_t* dev, uint64_t* ino) {
  struct stat st;
  if (syscall(SYS_fstat, fd, &st) != 0) return false;
  *dev = uint64_t(st.st_dev);
  *ino = uint64_t(st.st_ino);
  return true;
}

long sys_fcntl(int fd, int cmd, long arg) { return syscall(SYS_fcntl, fd, cmd, arg); }

void give_up(const char* why, int err) {
  __atomic_store_n(&g_state, 2, __ATOMIC_RELEASE);
  if (__atomic_exchange_n(&g_warned, 1, __ATOMIC_ACQ_REL)) return;
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), "warning").kv("code", "clock_perf").kv_dec("errno", err).kv_quoted("text", why);
  line.write_to(g_rt.log_fd);
}

}  // namespace

void perf_clock_init() {
  if (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE)) return;
  bool timer = !g_rt.config.clock_perf || g_rt.config.emulated;
  __atomic_store_n(&g_state, timer ? 2 : 1, __ATOMIC_RELEASE);
}

bool perf_clock_active() { return __atomic_load_n(&g_state, __ATOMIC_ACQUIRE) == 1; }

bool perf_clock_start(ThreadState* ts) {
  if (!perf_clock_active() || !ts) return false;
  perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.type = PERF_TYPE_SOFTWARE;
  a.size = sizeof a;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = g_rt.config.clock_interval_ns;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.disabled = 1;
  long r = syscall(SYS_perf_event_open, &a, pid_t(ts->tid), -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (r < 0) {
    give_up("perf_event_open(task-clock) failed: POSIX CPU-time timers instead, one sample per "
            "scheduler tick at most (docs/clock-profiling.md)", errno);
    return false;
  }
  int fd = int(r);
  if (!g_ino) identity(fd, &g_dev, &g_ino);
  fd = fd_own(fd, &ts->perf_fd);
  if (!fd_owned(fd) || fd >= kTableSize) {
    syscall(SYS_close, fd);
    // No high number for it: this thread gets a timer; later threads may still get events.
    if (!__atomic_exchange_n(&g_warned, 1, __ATOMIC_ACQ_REL))
      log_warning("clock_perf", "no descriptor number out of the program's way for a perf event: "
                                "POSIX CPU-time timer for that thread");
    return false;
  }
  f_owner_ex owner{F_OWNER_TID, pid_t(ts->tid)};
  if (sys_fcntl(fd, F_SETOWN_EX, long(&owner)) != 0 || sys_fcntl(fd, F_SETSIG, SIGPROF) != 0) {
    int err = errno;
    fd_release(fd);
    give_up("perf event signal set-up failed: POSIX CPU-time timers instead", err);
    return false;
  }
  // The slot must be known before the first signal can arrive.
  ts->perf_fd = fd;
  ts->perf_sig_fd = fd;
  __atomic_store_n(&g_by_fd[fd], ts, __ATOMIC_RELEASE);
  __atomic_store_n(&ts->has_perf, true, __ATOMIC_RELEASE);
  long fl = sys_fcntl(fd, F_GETFL, 0);
  if (fl < 0 || sys_fcntl(fd, F_SETFL, fl | O_ASYNC) != 0 || syscall(SYS_ioctl, fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    int err = errno;
    __atomic_store_n(&ts->has_perf, false, __ATOMIC_RELEASE);
    fd_release(fd);
    give_up("perf event could not be enabled: POSIX CPU-time timers instead", err);
    return false;
  }
  return true;
}

void perf_clock_stop(ThreadState* ts) {
  if (!ts) return;
  __atomic_store_n(&ts->perf_ending, 1, __ATOMIC_RELEASE);
  // Whoever clears has_perf owns the descriptor: this thread, or the sampler (perf_clock_check).
  if (!__atomic_exchange_n(&ts->has_perf, false, __ATOMIC_ACQ_REL)) return;
  syscall(SYS_ioctl, ts->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
  fd_release(ts->perf_fd);
}

bool perf_clock_check(ThreadState* ts) {
  if (!__atomic_load_n(&ts->has_perf, __ATOMIC_ACQUIRE) || __atomic_load_n(&ts->perf_ending, __ATOMIC_ACQUIRE))
    return true;
  uint64_t dev, ino;
  if (identity(ts->perf_fd, &dev, &ino) && dev == g_dev && ino == g_ino) return true;
  bool expected = true;
  if (!__atomic_compare_exchange_n(&ts->has_perf, &expected, false, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    return true;  // stopped meanwhile by its thread
  fd_forget(ts->perf_fd);  // the number is not the collector's any more
  if (__atomic_load_n(&ts->perf_ending, __ATOMIC_ACQUIRE)) return true;
  if (!perf_clock_start(ts)) return false;
  if (__atomic_load_n(&ts->perf_ending, __ATOMIC_ACQUIRE)) perf_clock_stop(ts);  // ended meanwhile
  return true;
}

bool perf_clock_owns_signal(const siginfo_t* si) {
  if (!si || si->si_code <= 0) return false;  // kill/sigqueue/tkill/timers: never ours
  int fd = si->si_fd;
  return fd >= 0 && fd < kTableSize && __atomic_load_n(&g_by_fd[fd], __ATOMIC_ACQUIRE) != nullptr;
}

ThreadState* perf_clock_slot_of(const siginfo_t* si) {
  if (!perf_clock_owns_signal(si)) return nullptr;
  ThreadState* ts = __atomic_load_n(&g_by_fd[si->si_fd], __ATOMIC_ACQUIRE);
  if (!__atomic_load_n(&ts->in_use, __ATOMIC_ACQUIRE) || !__atomic_load_n(&ts->has_perf, __ATOMIC_ACQUIRE) ||
      ts->perf_sig_fd != si->si_fd)
    return nullptr;
  return ts;
}

void perf_clock_forget_after_fork() {
  thread_for_each(
      [](ThreadState* ts, void*) {
        if (!ts->has_perf) return;
        // Closing the child's descriptor leaves the parent's event (its own reference) running.
        ts->has_perf = false;
        fd_release(ts->perf_fd);
      },
      nullptr);
}

}  // namespace erkit::collector
