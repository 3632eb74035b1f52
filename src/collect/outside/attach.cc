#include "collect/outside/attach.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "collect/outside/outside_cpu.h"
#include "collect/outside/outside_files.h"
#include "collect/outside/proc_maps.h"
#include "collect/outside/proc_task.h"
#include "collect/outside/remote_unwind.h"
#include "collect/outside/sampler.h"
#include "collect/outside/thread_clock.h"
#include "common/text_escape.h"
#include "format/experiment_format.h"
#include "reader/archive.h"

namespace erkit::collect::outside {
namespace {

volatile sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

uint64_t now_ns(clockid_t c) {
  timespec t;
  clock_gettime(c, &t);
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void append_line(const std::string& experiment, const char* file, const std::string& line) {
  std::string path = experiment + "/" + file;
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  std::string l = line + "\n";
  ssize_t n = write(fd, l.data(), l.size());
  (void)n;
  close(fd);
}

std::string paranoid_hint() {
  std::string v = read_file("/proc/sys/kernel/perf_event_paranoid");
  while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
  return fmt::format("kernel.perf_event_paranoid is {}: collect -P needs perf events on the process's threads "
                     "(root or CAP_PERFMON, or a paranoid level of 2 or less for a process of your own user)",
                     v.empty() ? "unknown" : v);
}

// The process's objects not yet in the map: written as the collector writes its load events.
class MapWriter {
 public:
  MapWriter(std::string experiment, pid_t pid) : exp_(std::move(experiment)), pid_(pid) {}
  void update(uint64_t tstamp) {
    for (const MappedObject& o : parse_proc_maps(read_file(fmt::format("/proc/{}/maps", pid_)))) {
      if (!seen_.insert({o.path, o.first_start}).second) continue;
      std::string path = o.path, build_id;
      uint64_t bias;
      if (o.path == "[vdso]") {
        // Only in memory: its image is saved in the experiment, as the collector does.
        std::vector<uint8_t> image(o.hi - o.lo);
        iovec local{image.data(), image.size()};
        iovec remote{reinterpret_cast<void*>(o.lo), image.size()};
        if (process_vm_readv(pid_, &local, 1, &remote, 1, 0) != ssize_t(image.size())) continue;
        path = "vdso.so";
        int fd = open((exp_ + "/" + path).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) continue;
        ssize_t n = write(fd, image.data(), image.size());
        close(fd);
        if (n != ssize_t(image.size())) continue;
        bias = load_bias({}, o.first_start, &image);
        build_id = reader::file_build_id(exp_ + "/" + path);
      } else {
        // The file as the process mapped it (its mount namespace: /proc/<pid>/root).
        bias = load_bias(o.path, o.first_start);
        build_id = reader::file_build_id(o.path);
      }
      append_line(exp_, format::kMapFile,
                  fmt::format("{} load path={} bias=0x{:x} lo=0x{:x} hi=0x{:x} buildid={}", tstamp,
                              common::quote_value(path), bias, o.lo, o.hi, build_id.empty() ? "-" : build_id));
    }
  }

 private:
  std::string exp_;
  pid_t pid_;
  std::set<std::pair<std::string, uint64_t>> seen_;
};

}  // namespace

std::string process_exe(pid_t pid) {
  char buf[4096];
  ssize_t n = readlink(fmt::format("/proc/{}/exe", pid).c_str(), buf, sizeof buf - 1);
  if (n <= 0) return {};
  buf[n] = 0;
  return buf;
}

std::vector<std::string> process_args(pid_t pid) {
  std::string raw = read_file(fmt::format("/proc/{}/cmdline", pid));
  std::vector<std::string> out;
  size_t b = 0;
  while (b < raw.size()) {
    size_t e = raw.find('\0', b);
    if (e == std::string::npos) e = raw.size();
    out.push_back(raw.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

std::string attach_refusal(const Options& o, pid_t pid, std::vector<std::string>* warnings) {
  // What only the collector inside the process can record.
  std::vector<std::string> inside;
  if (o.sync_trace != "off") inside.push_back("-s (synchronization tracing)");
  if (o.heap_trace) inside.push_back("-H (heap tracing)");
  if (o.io_trace) inside.push_back("-i (I/O tracing)");
  if (o.mpi_trace) inside.push_back("-m (MPI tracing)");
  if (!o.hwc.empty()) inside.push_back("-h (hardware counters)");
  if (o.clock_dataspace) inside.push_back("-p ...,+ (data addresses)");
  if (o.java == "on") inside.push_back("-j on (Java profiling)");
  if (o.sample_signal) inside.push_back("-l (sample signal)");
  if (o.pause_signal) inside.push_back("-y (pause signal)");
  if (o.stop_after_exec) inside.push_back("-x");
  if (o.follow_explicit && o.follow) inside.push_back("-F (following descendants)");
  if (!inside.empty()) {
    std::string list;
    for (const auto& s : inside) list += (list.empty() ? "" : ", ") + s;
    return fmt::format("-P {}: {} cannot be used when attaching: collect attaches without loading the collector "
                       "into the process and records only clock profiling and microstates from outside; start the "
                       "program under collect for {}",
                       pid, list, inside.size() == 1 ? "it" : "them");
  }
  if (o.clock_interval_ns == 0) return fmt::format("-P {}: -p off leaves nothing to record when attaching", pid);
  if (!o.target.empty())
    return fmt::format("-P {}: give either a process to attach to or a program to run, not both ('{}')", pid,
                       o.target[0]);
  if (!thread_clock_supported()) return fmt::format("-P {}: attaching is supported on x86-64 only", pid);
  if (pid == getpid() || pid == getppid()) return fmt::format("-P {}: collect cannot attach to itself or its parent", pid);
  if (::kill(pid, 0) != 0) {
    if (errno == ESRCH) return fmt::format("-P {}: there is no process {}", pid, pid);
    if (errno == EPERM)
      return fmt::format("-P {}: process {} belongs to another user: attaching needs the process's own user with "
                         "ptrace access to it, or CAP_SYS_PTRACE (root)",
                         pid, pid);
  }
  // The ptrace access check /proc/<pid>/syscall and process_vm_readv make (same user, not
  // setuid-changed, Yama's ptrace_scope, or CAP_SYS_PTRACE).
  int fd = open(fmt::format("/proc/{}/syscall", pid).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && (errno == EACCES || errno == EPERM))
    return fmt::format("-P {}: no ptrace access to process {} (another user, a setuid program, or "
                       "kernel.yama.ptrace_scope): attaching needs the process's own user with ptrace access, "
                       "or CAP_SYS_PTRACE (root)",
                       pid, pid);
  if (fd < 0) return fmt::format("-P {}: cannot read /proc/{}: {}", pid, pid, std::strerror(errno));
  char c;
  ssize_t n = read(fd, &c, 1);
  int err = errno;
  close(fd);
  if (n < 0 && (err == EACCES || err == EPERM))
    return fmt::format("-P {}: no ptrace access to process {}: attaching needs the process's own user with ptrace "
                       "access, or CAP_SYS_PTRACE (root)",
                       pid, pid);
  (void)warnings;
  return {};
}

AttachResult record_attached(const Options& o, pid_t pid, const std::string& experiment) {
  AttachResult res;
  const uint64_t interval = o.clock_interval_ns;
  const uint64_t start = now_ns(CLOCK_MONOTONIC);
  ProcTask proc(pid);
  // Events first: nothing more is written for a process that cannot be sampled. The data files
  // are the experiment's own "stacks" and "profile" (no collector writes them here).
  OutsideFiles files(experiment, "");
  RemoteUnwinder unwinder(pid);
  OutsideCpu clocks(pid, interval, start, files, unwinder);
  for (uint32_t tid : proc.tids()) {
    std::string why;
    int err = 0;
    if (!clocks.add(tid, &why, &err) && err != ESRCH) {  // ESRCH: gone meanwhile
      res.error = fmt::format("-P {}: cannot open a perf task-clock event on thread {}: {}\n  {}", pid, tid, why,
                              paranoid_hint());
      return res;
    }
  }
  if (!clocks.size()) {
    res.error = fmt::format("-P {}: the process ended before collect could attach", pid);
    return res;
  }
  const bool exclude_kernel = clocks.user_only();
  auto rel = [&](uint64_t t) { return t > start ? t - start : 0; };
  // The log: what the collector writes when it starts in a process.
  {
    timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    utsname u{};
    uname(&u);
    std::string statline = read_file(fmt::format("/proc/{}/stat", pid));
    long ppid = 0;
    if (size_t p = statline.rfind(')'); p != std::string::npos) std::sscanf(statline.c_str() + p + 2, "%*c %ld", &ppid);
    append_line(experiment, format::kLogFile, fmt::format("0 target pid={}", pid));
    append_line(experiment, format::kLogFile,
                fmt::format("0 setting name=attach pid={} source=outside exclude_kernel={}", pid, exclude_kernel ? 1 : 0));
    append_line(experiment, format::kLogFile, "0 setting name=clock_source source=perf_task_clock");
    append_line(experiment, format::kLogFile,
                fmt::format("0 start pid={} ppid={} exe={} realtime_ns={} monotonic_ns={} host={} arch={} os={} "
                            "ncpus={} pagesize={} clock_res_ns=1 clock_interval_ns={}",
                            pid, ppid, common::quote_value(process_exe(pid)),
                            int64_t(rt.tv_sec) * 1000000000ll + rt.tv_nsec, start, common::quote_value(u.nodename),
                            common::quote_value(u.machine), common::quote_value(u.release),
                            sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_PAGESIZE), interval));
    if (exclude_kernel)
      append_line(experiment, format::kLogFile,
                  "0 warning code=attach_user_only text=\"perf events are limited to user mode "
                  "(perf_event_paranoid): system CPU time is not sampled\"");
    for (uint32_t tid : clocks.tids())
      if (tid != uint32_t(pid)) append_line(experiment, format::kLogFile, fmt::format("0 thread_start tid={}", tid));
  }
  MapWriter map(experiment, pid);
  map.update(0);
  OutsideSampler sampler(experiment, pid, interval);
  // Periodic samples (-S) from /proc, and the start and end samples no collector writes here.
  sampler.periodic_samples(uint64_t(o.sample_interval_ms) * 1000000ull, true);
  res.threads = clocks.size();

  struct sigaction stop {}, old_int {}, old_term {}, old_hup {};
  stop.sa_handler = on_stop;
  sigemptyset(&stop.sa_mask);
  sigaction(SIGINT, &stop, &old_int);
  sigaction(SIGTERM, &stop, &old_term);
  sigaction(SIGHUP, &stop, &old_hup);
  const uint64_t deadline = o.attach_seconds > 0 ? start + uint64_t(o.attach_seconds * 1e9) : 0;
  const uint64_t period = sampler.period_ns();
  uint64_t next = now_ns(CLOCK_MONOTONIC);
  uint64_t cost0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  for (uint64_t pass = 0;; ++pass) {
    clocks.drain();
    uint64_t now = now_ns(CLOCK_MONOTONIC);
    auto tids = proc.tids();
    auto st = proc.stat(uint32_t(pid));
    if (tids.empty() || !st || st->state == 'Z' || st->state == 'X') {
      res.process_ended = true;
      break;
    }
    // Threads born since the last pass get their event and their log line before the
    // sampler's look (it samples only threads the log names); threads gone are closed.
    std::set<uint32_t> alive(tids.begin(), tids.end());
    for (uint32_t tid : tids)
      if (!clocks.has(tid) && clocks.add(tid)) {
        ++res.threads;
        append_line(experiment, format::kLogFile, fmt::format("{} thread_start tid={}", rel(now), tid));
      }
    for (uint32_t tid : clocks.tids()) {
      if (alive.count(tid)) continue;
      clocks.remove(tid);
      append_line(experiment, format::kLogFile, fmt::format("{} thread_end tid={}", rel(now), tid));
    }
    sampler.look();
    if (pass % 10 == 9) map.update(rel(now));  // objects loaded since (dlopen)
    files.flush();
    if (g_stop || (deadline && now >= deadline)) break;
    next += period;
    if (now > next) next = now;
    timespec ts{time_t(next / 1000000000ull), long(next % 1000000000ull)};
    if (deadline && next > deadline) ts = {time_t(deadline / 1000000000ull), long(deadline % 1000000000ull)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);  // EINTR: SIGINT, checked above
  }
  // Stop collection: the events are closed (detached), what they hold is written.
  clocks.stop();
  res.samples = clocks.samples();
  res.lost = clocks.lost();
  sampler.finish();
  files.flush();
  uint64_t end = now_ns(CLOCK_MONOTONIC);  // after the sampler's last records
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  if (res.lost)
    append_line(experiment, format::kLogFile,
                fmt::format("{} warning code=attach_lost text=\"{} CPU samples were lost (ring buffers full): collect "
                            "could not keep up\"",
                            rel(end), res.lost));
  append_line(experiment, format::kLogFile,
              fmt::format("{} attach samples={} lost={} threads={} cpu_ns={}", rel(end), res.samples, res.lost,
                          res.threads, now_ns(CLOCK_THREAD_CPUTIME_ID) - cost0));
  append_line(experiment, format::kLogFile,
              fmt::format("{} exit how={}", rel(end), res.process_ended ? "exit" : "detach"));
  append_line(experiment, format::kLogFile, res.process_ended ? "0 end how=gone" : "0 end how=detach");
  res.ok = files.ok();
  if (!res.ok) res.error = fmt::format("cannot write the experiment's data files in {}", experiment);
  return res;
}

}  // namespace erkit::collect::outside
