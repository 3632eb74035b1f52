#include "collect/launch.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "collect/experiment_log.h"
#include "collect/java_launch.h"
#include "collect/path_search.h"
#include "collect/outside/sampler.h"
#include "common/version.h"

extern char** environ;

namespace erkit::collect {
namespace {

pid_t g_child = -1;

// The signals collect passes on to the target when they are sent to collect alone.
constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void forward_signal(int sig, siginfo_t* si, void*) {
  // From the terminal (^C, ^\, hang-up) the kernel signals the whole foreground process group,
  // the target included: passing it on would deliver it twice.
  if (si && si->si_code == SI_KERNEL) return;
  if (g_child > 0) kill(g_child, sig);
}

// The dispositions collect inherited, for the target: an ignored signal (nohup, trap '' INT,
// a daemon's start-up) stays ignored in the target, and in collect too.
struct InheritedSignals {
  struct sigaction forwarded[std::size(kForwarded)];
  struct sigaction chld;
};

// Installs collect's own handling: forward what the target would not already get, and a
// default SIGCHLD (an inherited SIG_IGN would reap the target before waitpid could see it).
InheritedSignals take_signals() {
  InheritedSignals in;
  struct sigaction fwd {};
  fwd.sa_sigaction = forward_signal;
  fwd.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&fwd.sa_mask);
  for (size_t i = 0; i < std::size(kForwarded); ++i) {
    sigaction(kForwarded[i], nullptr, &in.forwarded[i]);
    if (in.forwarded[i].sa_handler != SIG_IGN) sigaction(kForwarded[i], &fwd, nullptr);
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGCHLD, &dfl, &in.chld);
  return in;
}

// In the child before exec: every disposition as collect found it (the signal mask was never
// changed).
void give_back_signals(const InheritedSignals& in) {
  for (size_t i = 0; i < std::size(kForwarded); ++i) sigaction(kForwarded[i], &in.forwarded[i], nullptr);
  sigaction(SIGCHLD, &in.chld, nullptr);
}

}  // namespace

std::string resolve_program(const std::string& program, std::string* error) {
  auto check = [&](const std::string& p) -> std::string {
    struct stat st;
    if (stat(p.c_str(), &st) != 0) return {};
    if (!S_ISREG(st.st_mode)) {
      *error = fmt::format("'{}' is not a regular file", p);
      return {};
    }
    if (access(p.c_str(), X_OK) != 0) {
      *error = fmt::format("'{}' is not executable", p);
      return {};
    }
    return std::filesystem::absolute(p).lexically_normal().string();
  };
  if (program.find('/') != std::string::npos) {
    std::string r = check(program);
    if (r.empty() && error->empty()) *error = fmt::format("program '{}' not found", program);
    return r;
  }
  std::string found = find_in_path(program);
  if (found.empty()) *error = fmt::format("program '{}' not found in PATH", program);
  return found;
}

bool wants_tracing(const Options& o) {
  return o.heap_trace || o.io_trace || o.sync_trace != "off" || o.mpi_trace;
}

namespace {

// A library of the collector next to this collect binary (build tree or install prefix), in
// `subdir` when given (the collector built for an emulated target's machine).
std::string find_library_beside_collect(const char* name, std::string* error, const std::string& subdir) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    *error = "cannot locate the collect executable";
    return {};
  }
  self[n] = 0;
  std::filesystem::path bindir = std::filesystem::path(self).parent_path();
  for (const char* rel : {"../lib", "../" ERKIT_INSTALL_LIBDIR, "../lib64"}) {
    auto cand = (subdir.empty() ? bindir / rel / name : bindir / rel / subdir / name).lexically_normal();
    if (std::filesystem::exists(cand)) return cand.string();
  }
  if (!subdir.empty())
    *error = fmt::format("{}/{} (the collector built for the target's machine) not found next to {}: build it "
                         "(docs/platforms.md) or set ERKIT_COLLECTOR_LIB",
                         subdir, name, self);
  else
    *error = fmt::format("{} not found next to {} (set ERKIT_COLLECTOR_LIB)", name, self);
  return {};
}

}  // namespace

std::string find_collector_library(const Options& o, std::string* error, const std::string& subdir) {
  if (const char* env = getenv("ERKIT_COLLECTOR_LIB"); env && *env) return env;
  return find_library_beside_collect(wants_tracing(o) ? "libcollector.so" : "libcollector-clock.so", error, subdir);
}

std::string find_mpi_library(const std::string& collector_lib, std::string* error) {
  // Beside the collector library first (ERKIT_COLLECTOR_LIB may point into another tree).
  auto beside = std::filesystem::path(collector_lib).parent_path() / "libcollector-mpi.so";
  if (std::filesystem::exists(beside)) return beside.string();
  return find_library_beside_collect("libcollector-mpi.so", error, {});
}

std::string collector_params(const Options& o, bool emulated) {
  // Values by Config field name, written in the table's order (format/collector_params.def).
  struct {
    int64_t clock_interval_ns, size_limit_bytes, sample_interval_ms, heap_trace, io_trace, follow, mpi_trace,
        sync_trace, sample_signal, pause_signal, pause_signal_starts_recording, stop_after_exec, emulated,
        clock_perf, clock_full_records;
  } v{};
  v.clock_interval_ns = int64_t(o.clock_interval_ns);
  v.size_limit_bytes = int64_t(o.size_limit_mb) * 1024 * 1024;
  v.sample_interval_ms = o.sample_interval_ms;
  v.heap_trace = o.heap_trace;
  v.io_trace = o.io_trace;
  v.follow = o.follow;
  v.mpi_trace = o.mpi_trace;
  if (o.sync_trace == "off") v.sync_trace = -1;
  else if (o.sync_trace == "all") v.sync_trace = 0;
  else if (o.sync_trace == "on" || o.sync_trace == "calibrate") v.sync_trace = -2;
  else v.sync_trace = std::stoll(o.sync_trace) * 1000;
  v.sample_signal = o.sample_signal;
  v.pause_signal = o.pause_signal;
  v.pause_signal_starts_recording = o.pause_signal_resume;
  v.stop_after_exec = o.stop_after_exec;
  v.emulated = emulated;
  // ERKIT_CLOCK_SOURCE=perf: per-thread perf task-clock events instead of POSIX CPU-time timers
  // (docs/clock-profiling.md: the requested rate exactly, at a higher cost per signal on VMs).
  const char* cs = getenv("ERKIT_CLOCK_SOURCE");
  v.clock_perf = cs && std::strcmp(cs, "perf") == 0;
  // ERKIT_CLOCK_RECORDS=full: the 88-byte clock_sample records erkit wrote before the compact
  // encoding (docs/experiment-format.md), for tools that patch records at fixed offsets.
  const char* cr = getenv("ERKIT_CLOCK_RECORDS");
  v.clock_full_records = cr && std::strcmp(cr, "full") == 0;
  enum When { Always, NonZero, WithPause };
  std::string s;
  auto put = [&](const char* key, int64_t value, When when) {
    if ((when == NonZero && value == 0) || (when == WithPause && v.pause_signal == 0)) return;
    s += fmt::format("{}{}={}", s.empty() ? "" : ";", key, value);
  };
#define ERKIT_PARAM(key, field, when) put(key, v.field, when);
#include "format/collector_params.def"
#undef ERKIT_PARAM
  return s;
}

namespace {
// ERKIT_SAMPLER=collect (issue 16): the founder is sampled from outside. Not with -x (a
// debugger may take the stopped target), under qemu-user (the kernel's files describe the
// emulator), or without clock profiling (nothing to sample).
bool outside_sampler_requested(const Options& o, const LaunchContext& ctx) {
  const char* v = getenv("ERKIT_SAMPLER");
  return v && std::strcmp(v, "collect") == 0 && o.clock_interval_ns > 0 && !o.stop_after_exec &&
         ctx.emulation.machine.empty();
}

// Waits for the target while sampling it from outside every sampler period; returns the wait
// status. The last look is taken while the ended target is still a zombie (WNOWAIT).
int wait_sampling(pid_t pid, const std::string& experiment, uint64_t interval_ns, int sample_interval_ms) {
  outside::OutsideSampler sampler(experiment, pid, interval_ns, /*adopt_unnamed=*/true);
  // Periodic samples (-S) from /proc, also while the process sleeps: the collector in it takes
  // none (it has no thread to take them; its start, end and event samples stay its own).
  sampler.periodic_samples(uint64_t(sample_interval_ms) * 1000000ull, false);
  uint64_t period = sampler.period_ns();
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (;;) {
    siginfo_t si{};
    int r = waitid(P_PID, id_t(pid), &si, WEXITED | WNOHANG | WNOWAIT);
    if ((r == 0 && si.si_pid == pid) || (r < 0 && errno == ECHILD)) break;
    sampler.look();
    uint64_t ns = uint64_t(next.tv_nsec) + period;
    next.tv_sec += time_t(ns / 1000000000ull);
    next.tv_nsec = long(ns % 1000000000ull);
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next.tv_sec || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec)) next = now;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr) == EINTR) {
    }
  }
  sampler.finish();
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}
}  // namespace

int run_target(const Options& o, const LaunchContext& ctx, std::string* error, int* killed_by) {
  if (killed_by) *killed_by = 0;
  ExperimentLog log(ctx.experiment);
  log.write_header(o, ctx);

  std::string preload = ctx.collector_lib;
  // The MPI wrappers come after the collector (they call into it) and before the program's
  // libraries, so that the program's MPI_ calls reach them first.
  if (!ctx.mpi_lib.empty()) preload += " " + ctx.mpi_lib;
  if (const char* old = getenv("LD_PRELOAD"); old && *old) preload += std::string(" ") + old;
  std::string exp_abs = std::filesystem::absolute(ctx.experiment).lexically_normal().string();
  std::string params = collector_params(o, !ctx.emulation.machine.empty());  // q=1: under qemu-user

  // SIGINT, SIGTERM, SIGHUP and SIGQUIT reach the target (from the terminal directly, from
  // kill through collect); collect waits for it and records how it ended.
  const InheritedSignals inherited = take_signals();
  // Issue 16: with ERKIT_SAMPLER=collect, collect samples the founder's microstates from
  // outside and the target starts no collector thread (docs/clock-profiling.md).
  const bool outside = outside_sampler_requested(o, ctx);

  pid_t pid = fork();
  if (pid < 0) {
    *error = fmt::format("fork failed: {}", std::strerror(errno));
    return 1;
  }
  if (pid == 0) {
    give_back_signals(inherited);
    // Whatever collector variables collect itself inherited (it may run under a collector)
    // belong to another experiment.
    // ERKIT_JAVA_ALLOCS=on|off and ERKIT_JAVA_ALLOC_INTERVAL=bytes (docs/java.md) are the user's
    // requests to collect and pass on to the JVM's agent.
    const char* java_allocs_env = getenv("ERKIT_JAVA_ALLOCS");
    const std::string java_allocs =
        java_allocs_env && (std::strcmp(java_allocs_env, "on") == 0 || std::strcmp(java_allocs_env, "off") == 0)
            ? java_allocs_env
            : "";
    const char* interval_env = getenv("ERKIT_JAVA_ALLOC_INTERVAL");
    const std::string java_interval = interval_env ? interval_env : "";
    // Tests only (docs/counters.md): a failing final counter read, for collector_hwc_ABORT.
    const char* hwc_fail_env = getenv("ERKIT_HWC_TEST_FAIL");
    const std::string hwc_fail = hwc_fail_env ? hwc_fail_env : "";
    std::vector<std::string> stale;
    for (char** e = environ; *e; ++e)
      if (std::strncmp(*e, "ERKIT_", 6) == 0) stale.emplace_back(*e, std::strchr(*e, '=') - *e);
    for (const auto& name : stale) unsetenv(name.c_str());
    if (!java_allocs.empty()) setenv("ERKIT_JAVA_ALLOCS", java_allocs.c_str(), 1);
    if (interval_env) setenv("ERKIT_JAVA_ALLOC_INTERVAL", java_interval.c_str(), 1);
    if (hwc_fail_env) setenv("ERKIT_HWC_TEST_FAIL", hwc_fail.c_str(), 1);
    if (ctx.emulation.machine.empty()) setenv("LD_PRELOAD", preload.c_str(), 1);
    else unsetenv("LD_PRELOAD");  // the emulated program gets it from qemu's -E (emulation.cc)
    setenv("ERKIT_EXPERIMENT", exp_abs.c_str(), 1);
    setenv("ERKIT_PARAMS", params.c_str(), 1);
    if (!o.hwc.empty() || o.clock_dataspace) setenv("ERKIT_HWC", hwc_env_value(o.hwc, o.clock_dataspace).c_str(), 1);
    setenv("ERKIT_PID", std::to_string(getpid()).c_str(), 1);
    if (outside) setenv("ERKIT_OUTSIDE_SAMPLER", std::to_string(getpid()).c_str(), 1);
    if (!o.follow_regex.empty()) setenv("ERKIT_FOLLOW_REGEX", o.follow_regex.c_str(), 1);
    std::vector<std::string> args = o.target;
    if (!ctx.java_agent.empty()) {
      // The JVMTI agent: on the launcher's command line, else through the JVM's environment.
      auto jvm_options = split_jvm_options(o.java_args);
      if (java_launcher(ctx.program_path)) args = java_command(o.target, ctx.java_agent, jvm_options);
      else setenv("JAVA_TOOL_OPTIONS", java_tool_options(ctx.java_agent, jvm_options, getenv("JAVA_TOOL_OPTIONS")).c_str(), 1);
    }
    std::string exe = ctx.program_path;
    if (!ctx.emulation.machine.empty()) {
      args = emulated_argv(ctx.emulation, preload, ctx.program_path, o.target);
      exe = ctx.emulation.emulator;
    }
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    fmt::print(ctx.out ? ctx.out : stderr, "collect: cannot execute '{}': {}\n", ctx.program_path,
               std::strerror(errno));
    if (ctx.out) std::fflush(ctx.out);
    _exit(127);
  }
  g_child = pid;
  log.write_target_pid(pid);
  int status = 0;
  if (outside) {
    status = wait_sampling(pid, ctx.experiment, o.clock_interval_ns, o.sample_interval_ms);
  } else for (;;) {
    if (waitpid(pid, &status, o.stop_after_exec ? WUNTRACED : 0) < 0) {
      if (errno == EINTR) continue;
      *error = fmt::format("waitpid failed: {}", std::strerror(errno));
      return 1;
    }
    if (!WIFSTOPPED(status)) break;
    // -x: the collector stopped the new image before main; a debugger may attach now.
    fmt::print(ctx.out ? ctx.out : stdout,
               "collect: target process {} is stopped after exec (-x); attach a debugger to it, or "
               "continue it with 'kill -CONT {}'\n",
               pid, pid);
    std::fflush(ctx.out ? ctx.out : stdout);
  }
  g_child = -1;
  log.write_end(status);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    if (killed_by) *killed_by = WTERMSIG(status);
    return 128 + WTERMSIG(status);
  }
  return 1;
}

void die_by_signal(int sig) {
  std::fflush(nullptr);
  // Like coreutils' timeout: the target may have dumped core, collect must not add its own.
  prctl(PR_SET_DUMPABLE, 0);
  struct rlimit core;
  if (getrlimit(RLIMIT_CORE, &core) == 0) {
    core.rlim_cur = 0;
    setrlimit(RLIMIT_CORE, &core);
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
}

}  // namespace erkit::collect
