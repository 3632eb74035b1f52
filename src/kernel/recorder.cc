#include "kernel/recorder.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/text_escape.h"
#include "common/version.h"
#include "format/log_keys.h"
#include "kernel/kernel_elf.h"
#include "kernel/privileges.h"

namespace erkit::kernel {
using common::EventLine;
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace logset = format::log_setting;

uint64_t monotonic_now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

namespace {

constexpr int kCpuRingPagesLog2 = 7;     // 512 KiB a CPU
constexpr int kThreadRingPagesLog2 = 5;  // 128 KiB a chosen thread
constexpr int kSchedRingPagesLog2 = 5;

perf_event_attr clock_attr(uint64_t interval_ns, bool user_mode) {
  perf_event_attr a{};
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_CPU_CLOCK;
  a.sample_period = interval_ns;
  a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
                  PERF_SAMPLE_CALLCHAIN;
  a.disabled = 1;
  a.exclude_user = user_mode ? 0 : 1;
  a.exclude_hv = 1;
  a.exclude_callchain_user = 1;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  a.wakeup_events = 0;
  return a;
}

perf_event_attr tracepoint_attr(int64_t id) {
  perf_event_attr a{};
  a.type = PERF_TYPE_TRACEPOINT;
  a.config = uint64_t(id);
  a.sample_period = 1;
  a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
  a.disabled = 1;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  return a;
}

// Online CPUs ("0-3,6" in /sys/devices/system/cpu/online).
std::vector<int> online_cpus() {
  std::vector<int> out;
  std::string s = read_text_file("/sys/devices/system/cpu/online");
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    char* end;
    long a = std::strtol(s.c_str() + i, &end, 10), b = a;
    if (*end == '-') b = std::strtol(end + 1, &end, 10);
    for (long c = a; c <= b; ++c) out.push_back(int(c));
    i = size_t(end - s.c_str());
    if (i < s.size() && s[i] == ',') ++i;
  }
  if (out.empty())
    for (long c = 0; c < sysconf(_SC_NPROCESSORS_ONLN); ++c) out.push_back(int(c));
  return out;
}

std::string task_dir(uint32_t pid, uint32_t tid) {
  return pid == 0 || pid == tid ? fmt::format("/proc/{}", tid) : fmt::format("/proc/{}/task/{}", pid, tid);
}

// 'R', 'S', 'D', ... of a task, 0 if it is gone.
char task_state(uint32_t pid, uint32_t tid) {
  std::string st = read_text_file(task_dir(pid, tid) + "/stat");
  size_t p = st.rfind(')');
  return p == std::string::npos || p + 2 >= st.size() ? 0 : st[p + 2];
}

// A kernel thread (PF_KTHREAD in /proc/<tid>/stat's flags): its LWP field is 0, as on Solaris.
bool is_kernel_thread(uint32_t tid) {
  std::string st = read_text_file(fmt::format("/proc/{}/stat", tid));
  size_t p = st.rfind(')');
  if (p == std::string::npos) return false;
  std::istringstream in(st.substr(p + 1));
  std::string f;
  for (int i = 0; i < 7 && (in >> f); ++i) {
  }
  return (std::strtoull(f.c_str(), nullptr, 10) & 0x00200000u) != 0;  // PF_KTHREAD
}

std::string comm_of(uint32_t pid, uint32_t tid) {
  if (tid == 0) return "swapper";
  std::string c = read_text_file(task_dir(pid, tid) + "/comm");
  while (!c.empty() && (c.back() == '\n' || c.back() == ' ')) c.pop_back();
  return c;
}

}  // namespace

Recorder::~Recorder() {
  if (w_ && !stopped_) stop("abandoned");
}

void Recorder::warn(const std::string& text) {
  warnings_.push_back(text);
  if (w_)
    w_->log_line(
        EventLine(start_ns_ ? rel(monotonic_now_ns()) : 0, logev::kWarning).kv_quoted(logkey::kText, text).str());
}

bool Recorder::open(const std::string& dir, const RecorderOptions& o, std::string* error) {
  opt_ = o;
  dir_ = dir;
  Privileges priv = read_privileges();
  // Events first: nothing is created for a user who may not profile.
  perf_event_attr ca = clock_attr(o.interval_ns, false);
  for (int cpu : online_cpus()) {
    auto ev = std::make_unique<PerfEvent>(ca, -1, cpu, kCpuRingPagesLog2);
    if (!ev->ok()) {
      if (ev->errno_value() == ENODEV) continue;  // went offline
      std::string msg = fmt::format("cannot open the cpu-clock event of CPU {}: {}", cpu, ev->error());
      if (ev->errno_value() == EACCES || ev->errno_value() == EPERM)
        for (const auto& m : priv.missing(true)) msg += "\n  " + m;
      *error = msg;
      return false;
    }
    cpu_events_.push_back(std::move(ev));
  }
  for (const ChosenThread& t : o.threads) {
    if (!task_state(t.pid, t.tid)) {
      *error = fmt::format("-T {}/{}: no such thread (threads must exist before er_kernel starts)", t.pid, t.tid);
      return false;
    }
    auto ev = std::make_unique<PerfEvent>(clock_attr(o.interval_ns, true), int(t.tid), -1, kThreadRingPagesLog2);
    if (!ev->ok()) {
      *error = fmt::format("-T {}/{}: cannot open its cpu-clock event: {}", t.pid, t.tid, ev->error());
      return false;
    }
    thread_events_.push_back(std::move(ev));
    chosen_alive_[t.tid] = true;
  }
  w_ = std::make_unique<format::HostExperimentWriter>(dir);
  if (!w_->ok()) {
    *error = w_->error();
    w_.reset();
    return false;
  }
  if (!priv.kernel_symbols())
    for (const auto& m : priv.missing(false)) warn(m);
  if (!o.threads.empty()) {
    std::string why;
    std::string tdir = tracefs_dir(&why);
    if (!tdir.empty()) {
      switch_tp_ = read_tracepoint(tdir, "sched", "sched_switch");
      wakeup_tp_ = read_tracepoint(tdir, "sched", "sched_wakeup");
      if (switch_tp_.id < 0 || wakeup_tp_.id < 0) why = "the sched:sched_switch/sched_wakeup tracepoints are missing";
    }
    if (switch_tp_.id >= 0 && wakeup_tp_.id >= 0) {
      std::string fs, fw;
      for (const ChosenThread& t : o.threads) {
        fs += fmt::format("{}prev_pid == {} || next_pid == {}", fs.empty() ? "" : " || ", t.tid, t.tid);
        fw += fmt::format("{}pid == {}", fw.empty() ? "" : " || ", t.tid);
      }
      for (int cpu : online_cpus()) {
        for (const auto* tp : {&switch_tp_, &wakeup_tp_}) {
          auto ev = std::make_unique<PerfEvent>(tracepoint_attr(tp->id), -1, cpu, kSchedRingPagesLog2);
          if (!ev->ok()) {
            why = fmt::format("cannot open the scheduler tracepoints: {}", ev->error());
            break;
          }
          ev->set_filter(tp == &switch_tp_ ? fs : fw);  // unfiltered still works, only costs more
          sched_events_.push_back(std::move(ev));
        }
        if (!why.empty()) break;
      }
    }
    if (!why.empty()) {
      sched_events_.clear();
      warn("no <SLEEPING>/<STALLED> for -T threads: " + why);
    }
    states_ = std::make_unique<SchedStates>([this](uint32_t tid, OffCpu s, uint64_t a, uint64_t b) {
      format::ClockSampleRecord r{};
      r.tid = tid;
      r.tstamp_ns = rel(b);
      r.stack_id = w_->stack({s == OffCpu::Sleeping ? format::kKernelSleepingPc : format::kKernelStalledPc});
      r.cpu = -1;
      r.flags = format::kClockFlagKernel | format::kClockFlagKernelThread;
      r.ns[s == OffCpu::Sleeping ? format::kMsOtherWait : format::kMsWaitCpu] = b - a;
      w_->clock_sample(r);
    });
  }
  return true;
}

void Recorder::start() {
  timespec rt;
  start_ns_ = monotonic_now_ns();
  clock_gettime(CLOCK_REALTIME, &rt);
  char cwd[4096] = "";
  if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
  w_->log_line(EventLine(0, logev::kCollect)
                   .kv(logkey::kVersion, ERKIT_VERSION)
                   .kv_quoted(logkey::kCommand, opt_.command)
                   .kv_quoted(logkey::kTarget, opt_.target)
                   .kv_quoted(logkey::kArgs, "")
                   .kv_quoted(logkey::kCwd, cwd)
                   .str());
  w_->log_line(EventLine(0, logev::kSetting)
                   .kv(logkey::kName, logset::kClock)
                   .kv(logkey::kIntervalNs, opt_.interval_ns)
                   .str());
  w_->log_line(EventLine(0, logev::kSetting)
                   .kv(logkey::kName, logset::kKernel)
                   .kv(logkey::kSource, "perf_event")
                   .kv(logkey::kCpus, uint64_t(cpu_events_.size()))
                   .kv(logkey::kThreads, uint64_t(opt_.threads.size()))
                   .str());
  utsname u{};
  uname(&u);
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  w_->log_line(EventLine(0, logev::kStart)
                   .kv(logkey::kPid, getpid())
                   .kv(logkey::kPpid, getppid())
                   .kv_quoted(logkey::kExe, exe)
                   .kv(logkey::kRealtimeNs, int64_t(rt.tv_sec) * 1000000000ll + rt.tv_nsec)
                   .kv(logkey::kMonotonicNs, start_ns_)
                   .kv_quoted(logkey::kHost, u.nodename)
                   .kv_quoted(logkey::kArch, u.machine)
                   .kv_quoted(logkey::kOs, u.release)
                   .kv(logkey::kNcpus, int64_t(sysconf(_SC_NPROCESSORS_ONLN)))
                   .kv(logkey::kPagesize, int64_t(sysconf(_SC_PAGESIZE)))
                   .kv(logkey::kClockIntervalNs, opt_.interval_ns)
                   .str());
  for (const ChosenThread& t : opt_.threads) {
    task_pid_[t.tid] = t.pid;
    if (states_) states_->begin(t.tid, task_state(t.pid, t.tid) == 'R', start_ns_);
  }
  for (auto* v : {&sched_events_, &thread_events_, &cpu_events_})
    for (auto& ev : *v) ev->enable();
}

// The kernel's call chain (or the sampled PC alone), cut at the format's stack limit with the
// truncation marker as its outermost frame.
void Recorder::take_callchain(const PerfSample& s) {
  pcs_ = s.callchain;
  if (pcs_.empty()) pcs_.push_back(s.ip);
  if (pcs_.size() > format::kMaxStackFrames) {
    pcs_.resize(format::kMaxStackFrames);
    pcs_.back() = format::kTruncatedMarkerPc;
  }
}

void Recorder::write_sample(const PerfSample& s, uint32_t flags, int microstate) {
  format::ClockSampleRecord r{};
  r.tid = s.tid;
  r.tstamp_ns = rel(s.time);
  r.stack_id = w_->stack(pcs_);
  r.cpu = int32_t(s.cpu);
  r.flags = flags;
  r.ns[microstate] = s.period;
  w_->clock_sample(r);
}

void Recorder::record_cpu_sample(const PerfSample& s) {
  take_callchain(s);
  write_sample(s, format::kClockFlagKernel, format::kMsSystem);
  ++samples_;
  if (s.tid && !task_pid_.count(s.tid)) {
    uint32_t pid = is_kernel_thread(s.tid) ? 0 : s.pid;
    task_pid_[s.tid] = pid;
    std::string c = comm_of(s.pid, s.tid);
    w_->log_line(fmt::format("{} task tid={} pid={} comm={}", rel(s.time), s.tid, pid, common::quote_value(c)));
  }
}

void Recorder::record_thread_sample(const PerfSample& s) {
  bool user = (s.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
  if (user)
    pcs_.assign(1, format::kKernelUserModePc);
  else
    take_callchain(s);
  write_sample(s, format::kClockFlagKernel | format::kClockFlagKernelThread,
               user ? format::kMsUser : format::kMsSystem);
}

void Recorder::poll() {
  for (auto& ev : cpu_events_) lost_ += ev->drain([this](const PerfSample& s) { record_cpu_sample(s); });
  for (auto& ev : thread_events_) lost_ += ev->drain([this](const PerfSample& s) { record_thread_sample(s); });
  if (sched_events_.empty() || !states_) return;
  struct Sched {
    uint64_t t;
    bool wakeup;
    uint32_t a, b;
    int64_t state;
  };
  std::vector<Sched> batch;
  for (size_t i = 0; i < sched_events_.size(); ++i) {
    bool wake = i % 2 == 1;  // opened as (switch, wakeup) per CPU
    lost_ += sched_events_[i]->drain([&](const PerfSample& s) {
      const Tracepoint& tp = wake ? wakeup_tp_ : switch_tp_;
      const uint8_t* raw = s.raw.data();
      size_t n = s.raw.size();
      if (wake)
        batch.push_back({s.time, true, uint32_t(field_value(tp, "pid", raw, n)), 0, 0});
      else
        batch.push_back({s.time, false, uint32_t(field_value(tp, "prev_pid", raw, n)),
                         uint32_t(field_value(tp, "next_pid", raw, n)), field_value(tp, "prev_state", raw, n)});
    });
  }
  std::stable_sort(batch.begin(), batch.end(), [](const Sched& x, const Sched& y) { return x.t < y.t; });
  for (const Sched& e : batch) {
    if (e.wakeup) states_->on_wakeup(e.t, e.a);
    else states_->on_switch(e.t, e.a, e.state, e.b);
  }
}

bool Recorder::chosen_threads_alive() {
  bool any = false;
  for (const ChosenThread& t : opt_.threads) {
    bool& alive = chosen_alive_[t.tid];
    if (alive && !task_state(t.pid, t.tid)) alive = false;
    any |= alive;
  }
  return any;
}

void Recorder::write_symbols() {
  std::string kdir = dir_ + "/kernel";
  mkdir(kdir.c_str(), 0755);
  std::string kallsyms = read_text_file("/proc/kallsyms");
  std::string modules = read_text_file("/proc/modules");
  // The symbols themselves are archived in the ELF files below; /proc/modules as read.
  std::ofstream(kdir + "/modules") << modules;
  KernelSymbols ks = parse_kernel_symbols(kallsyms, modules);
  if (kallsyms.empty()) warn("/proc/kallsyms could not be read: kernel functions are shown as addresses");
  else if (ks.addresses_hidden) warn("/proc/kallsyms shows every address as 0 (kernel.kptr_restrict): kernel functions are shown as addresses");
  for (KernelObject& o : ks.objects) {
    bool vmlinux = &o == &ks.objects.front() && o.name == "vmlinux";
    o.build_id = build_id_from_notes(read_text_file(
        vmlinux ? std::string("/sys/kernel/notes") : "/sys/module/" + o.name + "/notes/.note.gnu.build-id"));
    std::vector<uint8_t> code;
    std::string why;
    if (vmlinux) code = read_kcore(o.lo, o.hi, &why);
    if (vmlinux && code.empty()) warn("no disassembly of kernel code: " + why);
    std::string rel_path = "kernel/" + (vmlinux ? o.name : o.name + ".ko");
    std::string err;
    if (!write_kernel_elf(dir_ + "/" + rel_path, o, code, &err)) {
      warn(err);
      continue;
    }
    w_->load_object(rel_path, 0, o.lo, o.hi, o.build_id.empty() ? "-" : o.build_id, 0);
  }
}

void Recorder::stop(const std::string& how) {
  if (stopped_ || !w_) return;
  stopped_ = true;
  for (auto* v : {&cpu_events_, &thread_events_, &sched_events_})
    for (auto& ev : *v) ev->disable();
  poll();
  uint64_t end = monotonic_now_ns();
  if (states_) states_->end(end);
  for (const ChosenThread& t : opt_.threads)
    w_->log_line(EventLine(0, logev::kTask)
                     .kv(logkey::kTid, t.tid)
                     .kv(logkey::kPid, t.pid)
                     .kv_quoted(logkey::kComm, comm_of(t.pid, t.tid))
                     .kv(logkey::kChosen, 1)
                     .str());
  if (lost_) warn(fmt::format("{} records were lost (ring buffers full): use a longer interval", lost_));
  write_symbols();
  w_->log_line(fmt::format("{} exit how={}", rel(end), how));
  w_->finish();
}

}  // namespace erkit::kernel
