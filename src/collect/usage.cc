#include "collect/usage.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "collect/clock_tick.h"
#include "collect/hwc_events.h"
#include "common/version.h"
#include "expfiles/experiment_files.h"

namespace erkit::collect {
namespace {
// Whether this process may open a user-mode task-clock event on itself, as the collector does
// for each thread of the target (src/collector/perf_clock.h).
bool perf_task_clock_available() {
  perf_event_attr a{};
  a.type = PERF_TYPE_SOFTWARE;
  a.size = sizeof a;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = 1000000;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.disabled = 1;
  long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return false;
  close(int(fd));
  return true;
}
}  // namespace

void print_usage(FILE* out) {
  timespec res{};
  clock_getres(CLOCK_THREAD_CPUTIME_ID, &res);
  fmt::print(out,
             "Usage: collect [collect-options] program [program-arguments]\n"
             "erkit {} -- records a performance experiment of a program\n\n"
             "Data selection:\n"
             "  -p off|on|lo[w]|hi[gh]|<value>[m|u][,+]  clock profiling (default on, about 10 ms;\n"
             "                                       ,+ records data addresses)\n"
             "  -h [+]<counter>[~attr=v][,<interval>]... hardware-counter profiling\n"
             "  -s on|off|calibrate|all|<ms>         synchronization wait tracing\n"
             "  -H on|off                            heap tracing\n"
             "  -i on|off                            I/O tracing\n"
             "  -m on|off                            MPI tracing\n"
             "  -S on|off|<seconds>                  periodic samples (default 1 s)\n"
             "Experiment control:\n"
             "  -F off|on|all|=<regex>               follow descendant processes\n"
             "  -j on|off, -J <java-args>            Java profiling (on for a java target)\n"
             "  -l <signal>                          record a sample when the signal arrives\n"
             "  -y <signal>[,r]                      pause/resume recording with the signal\n"
             "  -x                                   stop the target after exec (debugger attach)\n"
             "  -P <pid> [-t <seconds>]              attach to a running process (no program given)\n"
             "Output:\n"
             "  -o <name>.er   -d <directory>   -g <group>.erg   -A off|on|copy\n"
             "  -L <MB>|unlimited|none   -O <file>\n"
             "Other:\n"
             "  -C <comment>   -n (dry run)   -R (README)   -V, --version (version)   -v (verbose)\n"
             "  --help (this help)   -- (ends the options: the next word is the program)\n"
             "See also: man collect\n\n",
             ERKIT_VERSION);
  fmt::print(out,
             "Clock-profiling interval: default 10.007 ms (on), high 0.997 ms (hi), low 100.003 ms (lo);\n"
             "  range {:.3f} ms - 1000 ms, rounded down to a multiple of 1 us. Samples are weighted by\n"
             "  the thread's measured CPU time (thread CPU clock resolution {} ns).\n\n",
             0.001, res.tv_nsec);
  bool perf = perf_task_clock_available();
  fmt::print(out, "{}", perf ? "  perf events are available here: ERKIT_CLOCK_SOURCE=perf samples each thread with a perf\n"
                         "  task-clock event instead, one sample per interval of its CPU time.\n"
                       : "  perf events are not available here (perf_event_paranoid 3, seccomp, container):\n"
                         "  clock profiling uses POSIX CPU-time timers.\n");
  if (uint64_t tick = measure_cpu_timer_granularity_ns())  // clock_tick.h (clock profiling)
    fmt::print(out, "  CPU-time timers expire every {:.3f} ms of CPU here (measured): shorter intervals give\n"
                    "  one sample per {:.3f} ms, weighted by the CPU time it stands for.\n\n",
               double(tick) / 1e6, double(tick) / 1e6);
  print_hwc_lists(out);  // hwc_events.h: what this machine really offers
}

void print_readme(FILE* out) {
  fmt::print(out,
             "erkit {}: collect records experiments; er_print analyses them.\n"
             "  collect ./app args      records test.1.er (test.2.er next time)\n"
             "  er_print -functions test.1.er\n"
             "See the documentation in docs/ (docs/collect.md, docs/er_print.md).\n",
             ERKIT_VERSION);
}

namespace {
// A relative group name is placed in the -d directory (seed-spec §3.4).
std::string group_path(const std::string& group, const std::string& directory) {
  if (!group.empty() && group[0] != '/' && !directory.empty()) return directory + "/" + group;
  return group;
}
}  // namespace

void print_dry_run(FILE* out, const Options& o, const LaunchContext& ctx, const std::string& experiment) {
  fmt::print(out, "collect: dry run (-n); nothing is executed.\n");
  fmt::print(out, "  Experiment:        {}\n", experiment);
  if (!o.group.empty()) fmt::print(out, "  Group:             {}\n", group_path(o.group, o.directory));
  fmt::print(out, "  Target:            {}\n", ctx.program_path);
  std::string args;
  for (size_t i = 1; i < o.target.size(); ++i) args += " " + o.target[i];
  fmt::print(out, "  Arguments:        {}\n", args.empty() ? " (none)" : args);
  if (o.clock_interval_ns)
    fmt::print(out, "  Clock profiling:   on, interval {:.3f} ms\n", double(o.clock_interval_ns) / 1e6);
  else
    fmt::print(out, "  Clock profiling:   off\n");
  fmt::print(out, "  Periodic samples:  {}\n",
             o.sample_interval_ms ? fmt::format("every {} s", o.sample_interval_ms % 1000 ? fmt::format("{:.3f}", o.sample_interval_ms / 1000.0) : fmt::format("{}", o.sample_interval_ms / 1000)) : "off");
  fmt::print(out, "  Heap tracing:      {}\n", o.heap_trace ? "on" : "off");
  fmt::print(out, "  Sync tracing:      {}\n", o.sync_trace);
  fmt::print(out, "  I/O tracing:       {}\n", o.io_trace ? "on" : "off");
  fmt::print(out, "  MPI tracing:       {}\n", o.mpi_trace ? "on" : "off");
  fmt::print(out, "  Descendants:       {}\n",
             !o.follow_regex.empty() ? "matching =" + o.follow_regex
             : o.follow == 0         ? "off"
             : o.follow == 1         ? "on (fork, exec, posix_spawn)"
                                     : "all (also system, popen)");
  if (o.sample_signal) fmt::print(out, "  Sample signal:     {}\n", signal_name(o.sample_signal));
  if (o.pause_signal)
    fmt::print(out, "  Pause signal:      {} (starts {})\n", signal_name(o.pause_signal),
               o.pause_signal_resume ? "recording" : "paused");
  if (o.stop_after_exec) fmt::print(out, "  Stop after exec:   yes\n");
  for (const auto& c : o.comments) fmt::print(out, "  Comment:           {}\n", c);
  fmt::print(out, "  Archiving:         {}\n", o.archive);
  fmt::print(out, "  Data limit:        {}\n", o.size_limit_mb ? fmt::format("{} MB", o.size_limit_mb) : "unlimited");
  fmt::print(out, "  Collector library: {}\n", ctx.collector_lib);
  if (!ctx.java_agent.empty())
    fmt::print(out, "  Java profiling:    on, agent {}{}\n", ctx.java_agent,
               o.java_args.empty() ? "" : fmt::format("; JVM options {}", o.java_args));
}

bool check_group(const std::string& group, const std::string& directory, std::string* error) {
  std::string path = group_path(group, directory);
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    // An empty file is a group another rank of the same job is creating right now.
    if (!S_ISREG(st.st_mode) || (st.st_size != 0 && first != expfiles::kGroupHeader)) {
      *error = fmt::format("'{}' is not an experiment group (first line must be '{}')", path, expfiles::kGroupHeader);
      return false;
    }
    if (access(path.c_str(), W_OK) != 0) {
      *error = fmt::format("experiment group '{}' is not writable", path);
      return false;
    }
    return true;
  }
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = fmt::format("directory '{}' of experiment group '{}' does not exist", dir, path);
    return false;
  }
  return true;
}

bool add_to_group(const std::string& group, const std::string& directory, const std::string& experiment,
                  std::string* error) {
  std::string path = group_path(group, directory);
  // Every rank of an MPI job may add itself at once: one writer at a time (flock); whoever
  // finds the file empty writes the header, the others check it.
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 || flock(fd, LOCK_EX) != 0) {
    if (fd >= 0) close(fd);
    *error = fmt::format("cannot write experiment group '{}'", path);
    return false;
  }
  const std::string header = std::string(expfiles::kGroupHeader) + "\n";
  std::string text;
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_size == 0) {
    text = header;
  } else {
    std::string first(header.size(), '\0');
    if (pread(fd, first.data(), first.size(), 0) != ssize_t(first.size()) || first != header) {
      close(fd);
      *error = fmt::format("'{}' is not an experiment group (first line must be '{}')", path, expfiles::kGroupHeader);
      return false;
    }
  }
  // Named relative to the group file when it lies beside or below it (readers resolve members
  // from the group's directory), else by absolute path.
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path group_dir = fs::absolute(path, ec).parent_path();
  fs::path exp = fs::absolute(experiment, ec).lexically_normal();
  fs::path rel = exp.lexically_relative(group_dir.lexically_normal());
  bool inside = !rel.empty() && *rel.begin() != "..";
  text += (inside ? rel.string() : exp.string()) + "\n";
  bool ok = write(fd, text.data(), text.size()) == ssize_t(text.size());
  close(fd);  // releases the lock
  if (!ok) {
    *error = fmt::format("cannot write experiment group '{}'", path);
    return false;
  }
  return true;
}

}  // namespace erkit::collect
