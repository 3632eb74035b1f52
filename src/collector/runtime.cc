#include "collector/runtime.h"
#include "collector/outside_sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "collector/clock_profiler.h"
#include "collector/hwc_profiler.h"
#include "collector/collector_cost.h"
#include "collector/config_env.h"
#include "collector/data_writer.h"
#include "collector/descendants.h"
#include "collector/dynamic_code.h"
#include "collector/fd_guard.h"
#include "collector/fd_owned.h"
#include "collector/load_map.h"
#include "collector/pause_resume.h"
#include "collector/perf_clock.h"
#include "collector/real_functions.h"
#include "collector/overview_samples.h"
#include "collector/task_proc.h"
#include "collector/stack_store.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/trace_common.h"
#include "collector/threads.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;

// Modules with threads of their own forget them in a forked child (sampler_thread.h).
void sampler_thread_forget_after_fork() __attribute__((weak));

Runtime g_rt = {};

namespace {
int g_init_state = 0;  // 0 never, 1 running, 2 done

int open_append(const char* dir, const char* name) {
  char path[4200];
  size_t dl = strlen(dir);
  if (dl + strlen(name) + 2 > sizeof path) return -1;
  memcpy(path, dir, dl);
  path[dl] = '/';
  strcpy(path + dl + 1, name);
  return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, experiment_file_mode(dir));
}

// Guards the log or map descriptor against programs that close every descriptor (fd_guard.h).
void guard_experiment_file(int* fd, const char* name) {
  char path[4200];
  size_t dl = strlen(g_rt.config.experiment_dir);
  if (dl + strlen(name) + 2 > sizeof path) return;
  memcpy(path, g_rt.config.experiment_dir, dl);
  path[dl] = '/';
  strcpy(path + dl + 1, name);
  fd_guard_add(fd, path, O_WRONLY | O_APPEND);
}

void write_start_event() {
  TextLine line;
  line.event(0, logev::kStart).kv_dec(logkey::kPid, getpid()).kv_dec(logkey::kPpid, getppid());
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  line.kv_quoted(logkey::kExe, exe);
  timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  line.kv_dec(logkey::kRealtimeNs, int64_t(rt.tv_sec) * 1000000000ll + rt.tv_nsec);
  line.kv_dec(logkey::kMonotonicNs, int64_t(g_rt.start_ns));
  utsname u;
  if (uname(&u) == 0) {
    line.kv_quoted(logkey::kHost, u.nodename).kv_quoted(logkey::kArch, u.machine).kv_quoted(logkey::kOs, u.release);
  }
  line.kv_dec(logkey::kNcpus, sysconf(_SC_NPROCESSORS_ONLN)).kv_dec(logkey::kPagesize, sysconf(_SC_PAGESIZE));
  timespec res;
  clock_getres(CLOCK_THREAD_CPUTIME_ID, &res);
  line.kv_dec(logkey::kClockResNs, res.tv_nsec).kv_dec(logkey::kClockIntervalNs, int64_t(g_rt.config.clock_interval_ns));
  if (g_rt.config.lineage[0]) line.kv_quoted(logkey::kLineage, g_rt.config.lineage);
  line.write_to(g_rt.log_fd);
}

// Every data module, started in this order (also in a followed fork child, where nothing of
// the parent's runs any more). Modules add their start call here, never in a constructor.
void modules_start() {
  load_map_refresh();
  tracers_init();  // heap, sync-wait and I/O tracing (after the unwinder knows every object)
  if (!clock_init()) log_warning("clock_init", "clock profiling could not be started");
  if (!hwc_init()) log_warning("hwc_init", "hardware-counter profiling could not be started");
}

// Process end: modules flush what they hold, in reverse order.
void modules_stop() {
  hwc_fini();
  clock_fini();
}

// A forked child must never write into its parent's experiment: until the fork interposer
// gives it its own experiment (or decides not to follow it), it records nothing. Runs inside
// fork(), in the child, for every fork, interposed or not.
void on_fork_child() {
  g_rt.active = false;
  __atomic_store_n(&g_rt.recording, 0, __ATOMIC_RELEASE);
  descendants_after_fork_child();
}

void forget_thread(ThreadState* ts, void* self) {
  data_thread_retire(ts);
  // A lock a parent thread held at fork time is never released in the child.
  __atomic_store_n(&ts->ms_lock, 0, __ATOMIC_RELEASE);
  if (ts != self) __atomic_store_n(&ts->in_use, 0, __ATOMIC_RELEASE);  // that thread is gone
}

}  // namespace

uint64_t monotonic_ns() {
  uint64_t ns = 0;
  clock_ns(CLOCK_MONOTONIC, &ns);
  return ns;
}

uint64_t now_ns() {
  uint64_t t = monotonic_ns();
  return t > g_rt.start_ns ? t - g_rt.start_ns : 0;
}

void log_warning(const char* code, const char* text) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), logev::kWarning).kv(logkey::kCode, code).kv_quoted(logkey::kText, text).write_to(g_rt.log_fd);
}

unsigned experiment_file_mode(const char* dir) {
  struct stat st;
  if (stat(dir, &st) != 0) return 0600;
  return (unsigned(st.st_mode) & 0644) | 0600;
}

void log_event(const char* event) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), event).write_to(g_rt.log_fd);
}

void on_data_limit_reached(uint64_t bytes) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), logev::kLimitReached).kv_dec(logkey::kBytes, int64_t(bytes));
  line.kv_dec(logkey::kLimit, int64_t(g_rt.config.size_limit_bytes)).write_to(g_rt.log_fd);
}

namespace {
bool start_experiment_files_and_modules() {
  g_rt.start_ns = monotonic_ns();
  g_rt.main_tid = int(syscall(SYS_gettid));
  g_rt.log_fd = open_append(g_rt.config.experiment_dir, format::kLogFile);
  g_rt.map_fd = open_append(g_rt.config.experiment_dir, format::kMapFile);
  if (g_rt.log_fd < 0 || g_rt.map_fd < 0 ||
      !data_files_open(g_rt.config.experiment_dir, g_rt.config.size_limit_bytes) || !stack_store_init()) {
    if (g_rt.log_fd >= 0) fd_release(g_rt.log_fd);
    if (g_rt.map_fd >= 0) fd_release(g_rt.map_fd);
    g_rt.log_fd = g_rt.map_fd = -1;
    return false;
  }
  g_rt.active = true;
  guard_experiment_file(&g_rt.log_fd, format::kLogFile);
  guard_experiment_file(&g_rt.map_fd, format::kMapFile);
  write_start_event();
  __atomic_store_n(&g_rt.recording, 1, __ATOMIC_RELEASE);
  threads_init();
  outside_sampler_decide();  // before the modules: collect may sample this process (issue 16)
  modules_start();
  overview_samples_start();
  overview_sample_record(format::kSampleStart, "start", true);
  return true;
}
}  // namespace

bool runtime_start_experiment() {
  // What starting does (helper threads and their thread-local storage) is not the program's:
  // the tracers skip calls made while the thread is inside the collector.
  ThreadState* self = current_thread();
  if (self) self->in_collector++;
  bool ok = start_experiment_files_and_modules();
  if (self) self->in_collector--;
  return ok;
}

void runtime_init() {
  int expected = 0;
  if (!__atomic_compare_exchange_n(&g_init_state, &expected, 1, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return;  // done, or in progress on this thread (re-entry from an interposer)
  uint64_t cpu_at_entry = own_cpu_ns();
  resolve_real_functions();
  g_rt.log_fd = g_rt.map_fd = -1;
  g_rt.exit_status = -1;
  EnvState st = config_from_env(&g_rt.config);
  if (st == EnvState::kNotCollected) {
    __atomic_store_n(&g_init_state, 2, __ATOMIC_RELEASE);
    return;  // not under collect: stay out of the way
  }
  // An image exec'd without the collector's knowledge inherits this and stays out.
  setenv(kEnvStarted, "1", 1);
  g_rt.tracking = true;
  descendants_init();
  pthread_atfork(nullptr, nullptr, on_fork_child);
  if (st == EnvState::kActive && runtime_start_experiment()) {
    pause_resume_start();
    // -x: a debugger can attach now, before main and before the program's constructors.
    if (g_rt.config.stop_after_exec) {
      log_event(logev::kStoppedAfterExec);
      raise(SIGSTOP);
    }
    cost_add_start(own_cpu_ns() - cpu_at_entry);
  }
  __atomic_store_n(&g_init_state, 2, __ATOMIC_RELEASE);
}

namespace {
// How the process ended for the collector, what it wrote and what recording cost.
void write_exit_line(const char* how) {
  TextLine line;
  line.event(now_ns(), logev::kExit).kv(logkey::kHow, how);
  if (g_rt.exit_status >= 0 && strcmp(how, "exit") == 0) line.kv_dec(logkey::kStatus, g_rt.exit_status);
  line.kv_dec(logkey::kBytes, int64_t(data_bytes_written()));
  if (data_limit_reached()) line.kv(logkey::kLimitReached, "1");
  cost_append(line);
  line.write_to(g_rt.log_fd);
}
}  // namespace

void runtime_fini(const char* how) {
  if (!g_rt.active) return;
  // Flushing (new blocks, fallocate) is the collector's work: no sample may show it as the
  // program's (clock_profiler.cc carries that time to the exit tail).
  uint64_t cpu_at_entry = own_cpu_ns();
  ThreadState* self = current_thread_if_any();
  if (self) self->in_collector++;
  overview_samples_stop();
  overview_sample_record(format::kSampleEnd, how, true);
  modules_stop();
  __atomic_store_n(&g_rt.recording, 0, __ATOMIC_RELEASE);
  dynamic_code_fini();
  cost_add_exit(own_cpu_ns() - cpu_at_entry);
  write_exit_line(how);
  g_rt.active = false;
  if (self) self->in_collector--;
}

void runtime_before_exec() {
  if (!g_rt.active) return;
  uint64_t cpu_at_entry = own_cpu_ns();
  overview_sample_record(format::kSampleExec, "exec", true);
  // Timers do not survive exec; the tails of the clock profile are flushed now.
  hwc_fini();
  clock_fini();
  dynamic_code_fini();
  cost_add_exit(own_cpu_ns() - cpu_at_entry);
  write_exit_line("exec");
}

void runtime_exec_failed(int err) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), logev::kExecFailed).kv_dec(logkey::kErrno, err).write_to(g_rt.log_fd);
  if (!clock_init()) log_warning("clock_init", "clock profiling could not be restarted after a failed exec");
  if (!hwc_init()) log_warning("hwc_init", "hardware-counter profiling could not be restarted after a failed exec");
  overview_sample_record(format::kSampleExec, "exec failed", true);
}

void runtime_forget_parent_after_fork() {
  g_rt.active = false;
  __atomic_store_n(&g_rt.recording, 0, __ATOMIC_RELEASE);
  if (g_rt.config.emulated) g_rt.no_helper_threads = true;
  overview_samples_forget_after_fork();
  outside_sampler_forget_after_fork();
  hwc_forget_after_fork();
  if (sampler_thread_forget_after_fork) sampler_thread_forget_after_fork();
  perf_clock_forget_after_fork();  // the inherited descriptors name the parent's events
  // Only the calling thread exists in the child; every block mapped in the parent's files is
  // unmapped here (without writing), and the other threads' slots are freed.
  ThreadState* self = current_thread();
  thread_for_each(forget_thread, self);
  if (self) {
    self->tid = uint32_t(syscall(SYS_gettid));
    self->has_timer = false;  // timers are not inherited
    self->baseline_valid = false;
    self->last_stack_id = 0;
    self->writer_depth = 0;
  }
  data_files_close();
  if (g_rt.log_fd >= 0) fd_release(g_rt.log_fd);
  if (g_rt.map_fd >= 0) fd_release(g_rt.map_fd);
  g_rt.log_fd = g_rt.map_fd = -1;
  stack_store_forget();
  load_map_forget();
  cost_reset();
  g_rt.exit_status = -1;
}

}  // namespace erkit::collector

__attribute__((constructor)) static void erkit_collector_constructor() {
  erkit::collector::runtime_init();
}

__attribute__((destructor)) static void erkit_collector_destructor() {
  erkit::collector::runtime_fini("exit");
}

// Every way a process can end that the collector can see records how it ended. exit() is
// seen twice: here for its status, then in the destructor above.
extern "C" __attribute__((visibility("default"), noreturn)) void exit(int status) noexcept {
  using erkit::collector::g_rt;
  if (g_rt.active) g_rt.exit_status = status & 0xff;
  auto real = reinterpret_cast<void (*)(int)>(erkit::collector::next_symbol("exit", nullptr));
  if (real) real(status);
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

extern "C" __attribute__((visibility("default"), noreturn)) void _exit(int status) {
  erkit::collector::runtime_fini("_exit");
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

extern "C" __attribute__((visibility("default"), noreturn)) void _Exit(int status) noexcept {
  erkit::collector::runtime_fini("_exit");
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

extern "C" __attribute__((visibility("default"), noreturn)) void abort() noexcept {
  erkit::collector::runtime_fini("abort");
  auto real = reinterpret_cast<void (*)()>(erkit::collector::next_symbol("abort", nullptr));
  if (real) real();
  // No real abort: end as abort would, by SIGABRT with its default action.
  signal(SIGABRT, SIG_DFL);
  raise(SIGABRT);
  syscall(SYS_exit_group, 134);
  __builtin_unreachable();
}
