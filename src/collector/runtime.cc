#include "collector/runtime.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "collector/clock_profiler.h"
#include "collector/config_env.h"
#include "collector/data_writer.h"
#include "collector/load_map.h"
#include "collector/real_functions.h"
#include "collector/stack_store.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/threads.h"
#include "format/experiment_format.h"

namespace erkit::collector {

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
  return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
}

void write_start_event() {
  TextLine line;
  line.event(0, "start").kv_dec("pid", getpid()).kv_dec("ppid", getppid());
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  line.kv_quoted("exe", exe);
  timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  line.kv_dec("realtime_ns", int64_t(rt.tv_sec) * 1000000000ll + rt.tv_nsec);
  line.kv_dec("monotonic_ns", int64_t(g_rt.start_ns));
  utsname u;
  if (uname(&u) == 0) {
    line.kv_quoted("host", u.nodename).kv_quoted("arch", u.machine).kv_quoted("os", u.release);
  }
  line.kv_dec("ncpus", sysconf(_SC_NPROCESSORS_ONLN)).kv_dec("pagesize", sysconf(_SC_PAGESIZE));
  timespec res;
  clock_getres(CLOCK_THREAD_CPUTIME_ID, &res);
  line.kv_dec("clock_res_ns", res.tv_nsec).kv_dec("clock_interval_ns", int64_t(g_rt.config.clock_interval_ns));
  line.write_to(g_rt.log_fd);
}

// Until descendants are followed, a forked child must not write into its parent's blocks.
void on_fork_child() {
  g_rt.active = false;
  __atomic_store_n(&g_rt.recording, 0, __ATOMIC_RELEASE);
}

}  // namespace

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

uint64_t now_ns() {
  uint64_t t = monotonic_ns();
  return t > g_rt.start_ns ? t - g_rt.start_ns : 0;
}

void log_warning(const char* code, const char* text) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), "warning").kv("code", code).kv_quoted("text", text).write_to(g_rt.log_fd);
}

void runtime_init() {
  int expected = 0;
  if (!__atomic_compare_exchange_n(&g_init_state, &expected, 1, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return;  // done, or in progress on this thread (re-entry from an interposer)
  resolve_real_functions();
  if (!config_from_env(&g_rt.config)) {
    __atomic_store_n(&g_init_state, 2, __ATOMIC_RELEASE);
    return;  // not under collect: stay out of the way
  }
  g_rt.start_ns = monotonic_ns();
  g_rt.main_tid = int(syscall(SYS_gettid));
  g_rt.log_fd = open_append(g_rt.config.experiment_dir, format::kLogFile);
  g_rt.map_fd = open_append(g_rt.config.experiment_dir, format::kMapFile);
  if (g_rt.log_fd < 0 || g_rt.map_fd < 0 ||
      !data_files_open(g_rt.config.experiment_dir, g_rt.config.size_limit_bytes) ||
      !stack_store_init()) {
    __atomic_store_n(&g_init_state, 2, __ATOMIC_RELEASE);
    return;
  }
  g_rt.active = true;
  setenv(kEnvStarted, "1", 1);
  pthread_atfork(nullptr, nullptr, on_fork_child);
  write_start_event();
  g_rt.recording = 1;
  threads_init();
  load_map_refresh();
  if (!clock_init()) log_warning("clock_init", "clock profiling could not be started");
  __atomic_store_n(&g_init_state, 2, __ATOMIC_RELEASE);
}

void runtime_fini(const char* how) {
  if (!g_rt.active) return;
  clock_fini();
  __atomic_store_n(&g_rt.recording, 0, __ATOMIC_RELEASE);
  TextLine line;
  line.event(now_ns(), "exit").kv("how", how).kv_dec("bytes", int64_t(data_bytes_written()));
  if (data_limit_reached()) line.kv("limit_reached", "1");
  line.write_to(g_rt.log_fd);
  g_rt.active = false;
}

}  // namespace erkit::collector

__attribute__((constructor)) static void erkit_collector_constructor() {
  erkit::collector::runtime_init();
}

__attribute__((destructor)) static void erkit_collector_destructor() {
  erkit::collector::runtime_fini("exit");
}

extern "C" __attribute__((visibility("default"), noreturn)) void _exit(int status) {
  erkit::collector::runtime_fini("_exit");
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}
