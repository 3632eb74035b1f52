#include "collector/overview_samples.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collector/collector_cost.h"
#include "collector/data_writer.h"
#include "collector/fd_owned.h"
#include "collector/microstates.h"
#include "collector/real_functions.h"
#include "collector/outside_sampler.h"
#include "collector/runtime.h"
#include "collector/signal_guard.h"
#include "collector/thread_state.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {

using format::OverviewSampleRecord;

int g_busy = 0;             // atomic: a sample is being written
uint32_t g_number = 0;      // atomic: samples numbered 1..N per experiment
int g_stop = 0;             // atomic: the helper thread should exit
int g_sampler_running = 0;  // atomic: the helper thread exists in this process
int g_sampler_tid = 0;      // atomic: its tid, once it runs
int g_by_microstates = 0;   // atomic: the microstate sampler thread takes the periodic samples
uint64_t g_next_due_ns = 0; // atomic: CLOCK_MONOTONIC of the next periodic sample

int64_t tv_ns(const timeval& tv) { return int64_t(tv.tv_sec) * 1000000000ll + int64_t(tv.tv_usec) * 1000ll; }

// The /proc files read for every sample, kept open at high numbers (fd_owned.h) and read
// from offset 0: a descriptor opened for each sample would take the program's lowest free
// number for that moment. Samples are written one at a time (g_busy).
struct KeptFile {
  const char* path;
  int fd;
  int pid;  // the process it was opened in (a forked child reopens its own)
};
KeptFile g_kept[] = {{"/proc/self/stat", -1, 0}, {"/proc/self/statm", -1, 0}, {"/proc/self/io", -1, 0}};

ssize_t pread_text(int fd, char* buf, size_t cap) {
  ssize_t n = pread(fd, buf, cap - 1, 0);
  if (n < 0) return -1;
  buf[n] = 0;
  return n;
}

// Reads a small /proc file into buf (NUL-terminated). Async-signal-safe.
ssize_t read_small(KeptFile& k, char* buf, size_t cap) {
  const int pid = int(syscall(SYS_getpid));
  if (k.fd >= 0 && k.pid == pid) {
    ssize_t n = pread_text(k.fd, buf, cap);
    if (n > 0) return n;
  }
  if (k.fd >= 0) fd_release(k.fd);  // a forked child's copy, or taken by the program's raw calls
  k.fd = -1;
  int fd = open(k.path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = pread_text(fd, buf, cap);
  if (fd_room_available()) fd = fd_own(fd, &k.fd);
  if (fd_owned(fd)) {
    k.fd = fd;
    k.pid = pid;
  } else {
    close(fd);  // no room up there (a low RLIMIT_NOFILE): opened for each sample
  }
  return n;
}

int64_t parse_i64(const char* p) {
  int64_t v = 0;
  while (*p == ' ') ++p;
  while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
  return v;
}

// Value of "key: N" in /proc/self/io, -1 if absent.
int64_t io_field(const char* text, const char* key) {
  size_t kl = strlen(key);
  for (const char* p = text; *p;) {
    if (strncmp(p, key, kl) == 0 && p[kl] == ':') return parse_i64(p + kl + 1);
    const char* nl = strchr(p, '\n');
    if (!nl) break;
    p = nl + 1;
  }
  return -1;
}

uint32_t thread_count() {
  char buf[1024];
  if (read_small(g_kept[0], buf, sizeof buf) <= 0) return 0;
  const char* p = strrchr(buf, ')');  // the command name may contain spaces and parentheses
  if (!p) return 0;
  // After ")": state(3) ppid(4) ... num_threads is field 20, i.e. the 18th after the name.
  int field = 2;
  for (++p; *p && field < 20; ++p)
    if (*p == ' ') ++field;
  int64_t n = parse_i64(p);
  if (__atomic_load_n(&g_sampler_running, __ATOMIC_RELAXED) && n > 0) --n;  // not the program's
  return uint32_t(n);
}

void fill(OverviewSampleRecord* r, uint32_t reason, const char* label) {
  r->reason = reason;
  r->tstamp_ns = now_ns();
  r->number = __atomic_add_fetch(&g_number, 1, __ATOMIC_RELAXED);
  r->nthreads = thread_count();
  rusage ru;
  memset(&ru, 0, sizeof ru);
  getrusage(RUSAGE_SELF, &ru);
  r->utime_ns = tv_ns(ru.ru_utime);
  r->stime_ns = tv_ns(ru.ru_stime);
  r->minflt = ru.ru_minflt;
  r->majflt = ru.ru_majflt;
  r->nvcsw = ru.ru_nvcsw;
  r->nivcsw = ru.ru_nivcsw;
  r->inblock = ru.ru_inblock;
  r->oublock = ru.ru_oublock;
  r->maxrss_kb = ru.ru_maxrss;
  char buf[1024];
  r->rss_kb = -1;
  if (read_small(g_kept[1], buf, sizeof buf) > 0) {
    const char* p = strchr(buf, ' ');
    if (p) r->rss_kb = parse_i64(p + 1) * (sysconf(_SC_PAGESIZE) / 1024);
  }
  // Bytes moved by read/write-like system calls (rchar/wchar): the I/O the program asked for,
  // whether or not the page cache satisfied it.
  r->read_bytes = r->write_bytes = -1;
  if (read_small(g_kept[2], buf, sizeof buf) > 0) {
    r->read_bytes = io_field(buf, "rchar");
    r->write_bytes = io_field(buf, "wchar");
  }
  memset(r->label, 0, sizeof r->label);
  if (label) {
    size_t n = strlen(label);
    if (n >= sizeof r->label) n = sizeof r->label - 1;
    memcpy(r->label, label, n);
  }
}

bool lock_samples(bool wait) {
  for (int i = 0;; ++i) {
    int expected = 0;
    if (__atomic_compare_exchange_n(&g_busy, &expected, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return true;
    if (!wait || i > 2000) return false;
    sched_yield();
  }
}

void* overview_sampler_main(void*) {
  // The collector's own thread: never profiled, never adopted as one of the program's.
  if (ThreadState* ts = current_thread()) ts->is_helper = true;
  __atomic_store_n(&g_sampler_tid, int(syscall(SYS_gettid)), __ATOMIC_RELEASE);
  uint64_t period = uint64_t(g_rt.config.sample_interval_ms) * 1000000ull;
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  while (!__atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) {
    uint64_t ns = uint64_t(next.tv_nsec) + period;
    next.tv_sec += time_t(ns / 1000000000ull);
    next.tv_nsec = long(ns % 1000000000ull);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr) == EINTR) {
    }
    if (__atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) break;
    if (g_rt.active) overview_sample_record(format::kSamplePeriodic, "");
  }
  __atomic_store_n(&g_sampler_running, 0, __ATOMIC_RELEASE);
  return nullptr;
}

void on_overview_sample_signal(int sig, siginfo_t* si, void* uc) {
  int saved = errno;
  overview_sample_record(format::kSampleSignal, "signal");
  // The program's own handler for the signal (if it has one) still runs; its default action
  // (termination) does not: the signal now belongs to the collector.
  struct sigaction prog;
  if (sigaction(sig, nullptr, &prog) == 0 && (prog.sa_flags & SA_SIGINFO ? prog.sa_sigaction != nullptr
                                                                          : prog.sa_handler != SIG_DFL &&
                                                                                prog.sa_handler != SIG_IGN))
    forward_to_program_handler(sig, si, uc);
  errno = saved;
}

}  // namespace

bool overview_sample_record(uint32_t reason, const char* label, bool wait) {
  if (!g_rt.active) return false;
  if (!lock_samples(wait)) return false;
  ThreadState* ts = current_thread();
  bool ok = false;
  auto* rec = static_cast<OverviewSampleRecord*>(record_reserve(
      ts, format::DataKind::kOverview, format::kRecOverviewSample, sizeof(OverviewSampleRecord)));
  if (rec) {
    // Filled beside the record, then copied: the header word stays "incomplete" meanwhile.
    OverviewSampleRecord r;
    fill(&r, reason, label);
    memcpy(reinterpret_cast<char*>(rec) + 4, reinterpret_cast<char*>(&r) + 4, sizeof r - 4);
    record_commit(rec, format::kRecOverviewSample, sizeof(OverviewSampleRecord));
    ok = true;
  }
  record_release(ts);
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELEASE);
  return ok;
}

void overview_samples_start() {
  if (g_rt.config.sample_signal > 0 && !install_collector_handler(g_rt.config.sample_signal, on_overview_sample_signal))
    log_warning("sample_signal", "could not install the handler of the -l signal");
  if (g_rt.config.sample_interval_ms <= 0 || __atomic_load_n(&g_sampler_running, __ATOMIC_ACQUIRE)) return;
  __atomic_store_n(&g_stop, 0, __ATOMIC_RELEASE);
  // Sampled from outside (ERKIT_SAMPLER=collect, issue 16): collect takes the periodic samples
  // from /proc at its looks, also while the process sleeps (collect/outside/overview.h); no
  // thread here, and none at clock signals either (they would be counted twice).
  if (outside_sampler_active() && g_rt.config.clock_interval_ns) return;
  if (sampler_thread_running()) {
    // One collector thread, not two: the microstate sampler takes them (overview_samples_tick).
    g_next_due_ns = monotonic_ns() + uint64_t(g_rt.config.sample_interval_ms) * 1000000ull;
    __atomic_store_n(&g_by_microstates, 1, __ATOMIC_RELEASE);
    return;
  }
  if (g_rt.no_helper_threads) {
    log_warning("sampler", "forked child under qemu-user: no periodic-sampling thread (docs/platforms.md)");
    return;
  }
  __atomic_store_n(&g_stop, 0, __ATOMIC_RELEASE);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  // The helper must not take the program's signals: it starts with all of them blocked, except
  // glibc's internal ones (32, 33: thread cancellation and setxid, which must reach every
  // thread). The raw system call: the program's view of its mask is not involved.
  sigset_t all, old;
  sigfillset(&all);
  sigdelset(&all, 32);
  sigdelset(&all, 33);
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, _NSIG / 8);
  pthread_t t;
  resolve_real_functions();
  __atomic_store_n(&g_sampler_running, 1, __ATOMIC_RELEASE);
  if (g_real.pthread_create(&t, &attr, overview_sampler_main, nullptr) != 0) {
    __atomic_store_n(&g_sampler_running, 0, __ATOMIC_RELEASE);
    log_warning("sampler", "could not start the periodic-sampling thread; only event samples are recorded");
  } else {
    pthread_setname_np(t, "erkit-sampler");
  }
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, nullptr, _NSIG / 8);
  pthread_attr_destroy(&attr);
}

void overview_samples_tick(uint64_t now_ns) {
  if (!__atomic_load_n(&g_by_microstates, __ATOMIC_ACQUIRE) || __atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) return;
  uint64_t due = __atomic_load_n(&g_next_due_ns, __ATOMIC_ACQUIRE);
  if (now_ns < due) return;
  uint64_t period = uint64_t(g_rt.config.sample_interval_ms) * 1000000ull;
  uint64_t next = due + period;
  if (next <= now_ns) next = now_ns + period;  // late: skip, never burst
  // Several threads' clock signals may call this at once (sampler in collect): one takes it.
  if (!__atomic_compare_exchange_n(&g_next_due_ns, &due, next, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) return;
  if (g_rt.active) overview_sample_record(format::kSamplePeriodic, "");
}

void overview_samples_stop() {
  __atomic_store_n(&g_stop, 1, __ATOMIC_RELEASE);
  // Not waited for (it may sleep for a whole sampling interval): its CPU time is read now.
  if (__atomic_load_n(&g_sampler_running, __ATOMIC_ACQUIRE))
    cost_add_helper_thread_cpu_of(__atomic_exchange_n(&g_sampler_tid, 0, __ATOMIC_ACQ_REL));
}

void overview_samples_forget_after_fork() {
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_number, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_sampler_running, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_sampler_tid, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_stop, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&g_by_microstates, 0, __ATOMIC_RELAXED);
}

}  // namespace erkit::collector
