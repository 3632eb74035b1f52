// er_kernel: the kernel's clock profile of every CPU, and of chosen threads (seed-spec §9,
// docs/er_kernel.md). Runs an optional load between two quiet periods; with `collect load`
// the load's user experiment is recorded in the same run, on the same clock.
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "collect/naming.h"
#include "collect/usage.h"
#include "common/version.h"
#include "kernel/privileges.h"
#include "kernel/recorder.h"
#include "tools/er_kernel/options.h"

using namespace erkit;

namespace {

volatile sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

void sleep_s(double s) {
  timespec t{time_t(s), long((s - std::floor(s)) * 1e9)};
  while (nanosleep(&t, &t) != 0 && errno == EINTR && !g_stop) {
  }
}

std::string self_dir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string p(buf, size_t(n));
  return p.substr(0, p.rfind('/'));
}

// The load's argv: `collect` is the collect installed beside er_kernel when there is one.
std::vector<std::string> load_argv(const er_kernel::Options& o) {
  std::vector<std::string> argv = o.load;
  if (o.with_collect) {
    std::string c = self_dir() + "/collect";
    if (access(c.c_str(), X_OK) == 0) argv[0] = c;
  }
  return argv;
}

pid_t start_load(const std::vector<std::string>& argv) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  std::vector<char*> av;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  execvp(av[0], av.data());
  fmt::print(stderr, "er_kernel: cannot run '{}': {}\n", argv[0], std::strerror(errno));
  _exit(127);
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string command = "er_kernel";
  for (const auto& a : args) command += " " + a;
  auto pr = er_kernel::parse_options(args);
  if (!pr.options) {
    fmt::print(stderr, "er_kernel: {}\n", pr.error);
    er_kernel::print_usage(stderr);
    return 2;
  }
  const er_kernel::Options& o = *pr.options;
  if (o.help) {
    er_kernel::print_usage(stdout);
    return 0;
  }
  if (o.version) {
    fmt::print("er_kernel: erkit {}\n", ERKIT_VERSION);
    return 0;
  }
  if (!pr.warning.empty()) fmt::print(stderr, "er_kernel: warning: {}\n", pr.warning);
  auto name = collect::preview_experiment_name(o.output.empty() ? "ktest.1.er" : o.output, o.directory);
  if (!name.error.empty()) {
    fmt::print(stderr, "er_kernel: {}\n", name.error);
    return 1;
  }
  kernel::Privileges priv = kernel::read_privileges();
  auto missing = priv.missing(true);
  if (o.dry_run) {
    fmt::print("er_kernel: would record {}: cpu-clock every {:.3f} ms on every CPU, kernel call stacks\n", name.path,
               double(o.interval_ns) / 1e6);
    for (const auto& [pid, tid] : o.threads) fmt::print("  Kthr Time of thread {}/{}\n", pid, tid);
    if (!o.load.empty()) {
      std::string l;
      for (const auto& a : o.load) l += " " + a;
      fmt::print("  load:{} (quiet period {} s before and after)\n", l, o.quiet_s);
    }
    if (o.duration_s > 0) fmt::print("  for at most {} s\n", o.duration_s);
    for (const auto& m : missing) fmt::print("  missing privilege: {}\n", m);
    return 0;
  }
  std::string error;
  if (!o.group.empty() && !collect::check_group(o.group, o.directory, &error)) {
    fmt::print(stderr, "er_kernel: {}\n", error);
    return 1;
  }
  kernel::RecorderOptions ro;
  ro.interval_ns = o.interval_ns;
  ro.command = command;
  for (const auto& a : o.load) ro.target += (ro.target.empty() ? "" : " ") + a;
  ro.verbose = o.verbose;
  for (const auto& [pid, tid] : o.threads) ro.threads.push_back({pid, tid});
  kernel::Recorder rec;
  if (!rec.open(name.path, ro, &error)) {
    fmt::print(stderr, "er_kernel: {}\n", error);
    if (o.with_collect) {  // degrade: the user experiment alone
      fmt::print(stderr, "er_kernel: no kernel experiment; recording the user experiment only\n");
      pid_t child = start_load(load_argv(o));
      int status = 0;
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      return exit_code(status);
    }
    return 1;
  }
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  rec.start();
  if (o.verbose || o.load.empty())
    fmt::print(stderr, "er_kernel: recording {}{}\n", name.path,
               o.load.empty() && o.duration_s == 0 && o.threads.empty() ? " (Ctrl-C to stop)" : "");
  const uint64_t deadline = o.duration_s > 0 ? rec.start_monotonic_ns() + uint64_t(o.duration_s * 1e9) : UINT64_MAX;
  const uint64_t poll_ns = std::min<uint64_t>(50000000, std::max<uint64_t>(5000000, o.interval_ns * 20));
  auto past_deadline = [&] { return kernel::monotonic_now_ns() >= deadline; };
  auto wait_for = [&](double s, auto done) {  // polls the rings until s seconds pass or done()
    uint64_t until = s >= 1e9 ? UINT64_MAX : kernel::monotonic_now_ns() + uint64_t(s * 1e9);
    while (!g_stop && !past_deadline() && !done() && kernel::monotonic_now_ns() < until) {
      rec.poll();
      sleep_s(double(poll_ns) / 1e9);
    }
  };
  std::string how = "stopped";
  int result = 0;
  pid_t child = -1;
  int status = 0;
  if (!o.load.empty()) {
    wait_for(o.quiet_s, [] { return false; });
    if (!g_stop && !past_deadline()) {
      child = start_load(load_argv(o));
      wait_for(1e9, [&] {
        pid_t w = waitpid(child, &status, WNOHANG);
        if (w == child) child = -1;
        return child < 0;
      });
      if (child < 0) {
        result = exit_code(status);
        how = "load_ended";
        wait_for(o.quiet_s, [] { return false; });
      }
    }
  } else {
    wait_for(1e9, [&] { return !o.threads.empty() && !rec.chosen_threads_alive(); });
    if (!o.threads.empty() && !rec.chosen_threads_alive()) how = "threads_ended";
  }
  if (g_stop) how = "interrupted";
  else if (past_deadline()) how = "time_limit";
  rec.stop(how);
  for (const auto& w : rec.warnings()) fmt::print(stderr, "er_kernel: warning: {}\n", w);
  if (!o.group.empty() && !collect::add_to_group(o.group, o.directory, name.path, &error))
    fmt::print(stderr, "er_kernel: {}\n", error);
  fmt::print(stderr, "er_kernel: wrote {}: {} kernel samples ({})\n", name.path, rec.samples(), how);
  if (child > 0) {  // recording ended before the load: let it finish
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    result = exit_code(status);
  }
  return result;
}
