#include "collector/clock_profiler.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collector/data_writer.h"
#include "collector/runtime.h"
#include "collector/signal_guard.h"
#include "collector/stack_store.h"
#include "collector/thread_state.h"
#include "collector/unwind/unwind.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {

using format::ClockSampleRecord;

// The address of this object marks our timers' signals (si_value), distinguishing them from
// SIGPROFs the program arranges for itself.
char g_cookie;
bool g_enabled = false;

uint64_t tv_ns(const timeval& tv) { return uint64_t(tv.tv_sec) * 1000000000ull + uint64_t(tv.tv_usec) * 1000ull; }

bool thread_times(uint64_t* user_ns, uint64_t* system_ns) {
  rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return false;
  *user_ns = tv_ns(ru.ru_utime);
  *system_ns = tv_ns(ru.ru_stime);
  return true;
}

bool start_timer(ThreadState* ts, clockid_t clock, pid_t tid) {
  sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev.sigev_value.sival_ptr = &g_cookie;
  sev._sigev_un._tid = tid;
  timer_t timer;
  if (timer_create(clock, &sev, &timer) != 0) return false;
  itimerspec its;
  uint64_t ns = g_rt.config.clock_interval_ns;
  its.it_interval.tv_sec = time_t(ns / 1000000000ull);
  its.it_interval.tv_nsec = long(ns % 1000000000ull);
  its.it_value = its.it_interval;
  if (timer_settime(timer, 0, &its, nullptr) != 0) {
    timer_delete(timer);
    return false;
  }
  if (ts) {
    ts->timer = timer;
    ts->has_timer = true;
  }
  return true;
}

clockid_t thread_cpu_clock(pid_t tid) {
  // The kernel's encoding of another thread's CPU clock (MAKE_THREAD_CPUCLOCK(tid, SCHED)).
  return clockid_t((~unsigned(tid)) << 3) | 6;
}

void write_clock_record(ThreadState* writer, const ThreadState* subject, uint64_t stack_id, uint64_t du,
                        uint64_t ds);

void record_sample(siginfo_t* si, void* uc) {
  ThreadState* ts = current_thread();
  if (!ts) return;
  uint64_t user_ns = 0, system_ns = 0;
  if (!thread_times(&user_ns, &system_ns)) return;
  uint64_t du, ds;
  if (ts->baseline_valid) {
    du = user_ns >= ts->last_user_ns ? user_ns - ts->last_user_ns : 0;
    ds = system_ns >= ts->last_system_ns ? system_ns - ts->last_system_ns : 0;
  } else {
    // A thread the collector did not see start: credit what this signal stands for.
    du = g_rt.config.clock_interval_ns * uint64_t(1 + (si->si_overrun > 0 ? si->si_overrun : 0));
    ds = 0;
    ts->baseline_valid = true;
  }
  ts->last_user_ns = user_ns;
  ts->last_system_ns = system_ns;
  // While paused the baseline still advances, so a resumed thread is not credited with the pause.
  if (ts->paused || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return;
  if (du + ds == 0) return;

  uint64_t pcs[format::kMaxStackFrames + 1];
  unwind::UnwindStatus st{};
  unwind::StackBounds bounds{ts->stack_lo, ts->stack_hi};
  int n = unwind::unwind_from_ucontext(uc, bounds, pcs, int(format::kMaxStackFrames), &st);
  if (st.failed && !st.truncated && n < int(format::kMaxStackFrames)) pcs[n++] = format::kUnwindFailedPc;
  uint64_t stack_id = stack_intern(ts, pcs, n, st.truncated);
  ts->last_stack_id = stack_id;
  write_clock_record(ts, ts, stack_id, du, ds);
}

void write_clock_record(ThreadState* ts, const ThreadState* subject, uint64_t stack_id, uint64_t du,
                        uint64_t ds) {
  auto* rec = static_cast<ClockSampleRecord*>(record_reserve(
      ts, format::DataKind::kProfile, format::kRecClockSample, sizeof(ClockSampleRecord)));
  if (rec) {
    rec->tid = subject->tid;
    rec->tstamp_ns = now_ns();
    rec->stack_id = stack_id;
    rec->cpu = sched_getcpu();
    rec->flags = subject->is_main ? format::kClockFlagMainThread : 0;
    memset(rec->ns, 0, sizeof rec->ns);
    rec->ns[format::kMsUser] = du;
    rec->ns[format::kMsSystem] = ds;
    record_commit(rec, format::kRecClockSample, sizeof(ClockSampleRecord));
  }
  record_release(ts);
}

void on_sigprof(int sig, siginfo_t* si, void* uc) {
  if (!clock_owns_signal(si)) {
    forward_to_program_handler(sig, si, uc);
    return;
  }
  int saved_errno = errno;
  record_sample(si, uc);
  errno = saved_errno;
}

void start_existing_thread_timers() {
  // Threads created before the collector initialised (other libraries' constructors) get a
  // timer on their own CPU clock, delivered to them by tid.
  int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[4096];
  long n;
  pid_t self = pid_t(syscall(SYS_gettid));
  while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<dirent64*>(buf + off);
      off += d->d_reclen;
      pid_t tid = 0;
      for (const char* p = d->d_name; *p >= '0' && *p <= '9'; ++p) tid = tid * 10 + (*p - '0');
      if (tid > 0 && tid != self) {
        if (!start_timer(nullptr, thread_cpu_clock(tid), tid))
          log_warning("clock_timer", "could not start a timer for a pre-existing thread");
      }
    }
  }
  close(fd);
}

}  // namespace

bool clock_owns_signal(const siginfo_t* si) {
  return si && si->si_code == SI_TIMER && si->si_value.sival_ptr == &g_cookie;
}

bool clock_init() {
  if (g_rt.config.clock_interval_ns == 0) return true;
  if (!install_collector_handler(SIGPROF, on_sigprof)) return false;
  g_enabled = true;
  ThreadState* ts = current_thread();
  if (ts) {
    ts->is_main = true;
    clock_thread_start(ts);
  }
  start_existing_thread_timers();
  return true;
}

void clock_thread_start(ThreadState* ts) {
  if (!g_enabled || !ts) return;
  if (thread_times(&ts->last_user_ns, &ts->last_system_ns)) ts->baseline_valid = true;
  if (!start_timer(ts, CLOCK_THREAD_CPUTIME_ID, pid_t(ts->tid)))
    log_warning("clock_timer", "could not start the clock-profiling timer of a thread");
}

void clock_thread_end(ThreadState* ts) {
  if (ts && ts->has_timer) {
    timer_delete(ts->timer);
    ts->has_timer = false;
  }
}

void clock_flush_tail(ThreadState* ts) {
  if (!g_enabled || !ts || !ts->baseline_valid || !ts->last_stack_id) return;
  if (ts != current_thread_if_any()) return;  // RUSAGE_THREAD reads the calling thread only
  uint64_t u = 0, s = 0;
  if (!thread_times(&u, &s)) return;
  uint64_t du = u > ts->last_user_ns ? u - ts->last_user_ns : 0;
  uint64_t ds = s > ts->last_system_ns ? s - ts->last_system_ns : 0;
  ts->last_user_ns = u;
  ts->last_system_ns = s;
  if (du + ds) write_clock_record(ts, ts, ts->last_stack_id, du, ds);
}

namespace {
// Other threads still running at exit: their CPU clock gives the total since their last
// sample; it is split between user and system like their latest reading.
void flush_other_thread(ThreadState* ts, void*) {
  if (ts == current_thread_if_any() || !ts->baseline_valid || !ts->last_stack_id) return;
  timespec now;
  if (clock_gettime(thread_cpu_clock(pid_t(ts->tid)), &now) != 0) return;
  uint64_t total = uint64_t(now.tv_sec) * 1000000000ull + uint64_t(now.tv_nsec);
  uint64_t last = ts->last_user_ns + ts->last_system_ns;
  if (total <= last) return;
  uint64_t delta = total - last;
  uint64_t ds = last ? uint64_t(double(delta) * double(ts->last_system_ns) / double(last)) : 0;
  // Written from this thread's own cursors: the other thread may be mid-record in its own.
  write_clock_record(current_thread(), ts, ts->last_stack_id, delta - ds, ds);
  ts->last_user_ns += delta - ds;
  ts->last_system_ns += ds;
}
}  // namespace

void clock_fini() {
  if (!g_enabled) return;
  ThreadState* ts = current_thread_if_any();
  clock_thread_end(ts);
  clock_flush_tail(ts);
  thread_for_each(flush_other_thread, nullptr);
  g_enabled = false;
}

}  // namespace erkit::collector
