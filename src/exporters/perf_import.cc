#include "exporters/perf_import.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <gelf.h>
#include <libelf.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>

#include "common/text_escape.h"
#include "common/version.h"
#include "format/host_writer.h"

extern char** environ;

namespace erkit::exporters {
namespace {

bool is_clock_event(const std::string& event) {
  std::string base = event.substr(0, event.find(':'));
  return base == "cpu-clock" || base == "task-clock";
}

enum class FrameKind { File, Kernel, Unknown };

FrameKind frame_kind(const PerfFrame& f) {
  if (f.dso.rfind("[kernel", 0) == 0 || f.dso.rfind("[guest.kernel", 0) == 0) return FrameKind::Kernel;
  if (!f.dso.empty() && f.dso[0] == '/') return FrameKind::File;
  if (f.ip >= 0xffff800000000000ull) return FrameKind::Kernel;
  return FrameKind::Unknown;
}

// The loadable segments of an ELF file, to turn file offsets (what mmap events give) into the
// virtual addresses symbols use.
struct Segment {
  uint64_t offset, vaddr, filesz;
};

std::vector<Segment> load_segments(const std::string& path) {
  std::vector<Segment> out;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  elf_version(EV_CURRENT);
  if (Elf* elf = elf_begin(fd, ELF_C_READ, nullptr)) {
    size_t n = 0;
    if (elf_getphdrnum(elf, &n) == 0) {
      for (size_t i = 0; i < n; ++i) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, int(i), &ph) && ph.p_type == PT_LOAD) out.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
      }
    }
    elf_end(elf);
  }
  close(fd);
  return out;
}

class Importer {
 public:
  Importer(const PerfScript& s, const std::string& dir, const std::string& cmd, const PerfRunInfo& run)
      : s_(s), dir_(dir), cmd_(cmd), run_(run) {}

  ImportResult run() {
    ImportResult r;
    std::vector<const PerfSample*> samples;
    std::map<std::string, uint64_t> skipped_events;
    for (const auto& smp : s_.samples) {
      if (!is_clock_event(smp.event)) {
        skipped_events[smp.event]++;
        continue;
      }
      cleaned_.push_back(smp);
      clean_frames(&cleaned_.back().frames);
    }
    for (const auto& smp : cleaned_) samples.push_back(&smp);
    for (const auto& [ev, n] : skipped_events) {
      r.skipped += n;
      r.warnings.push_back(fmt::format("{} samples of event '{}' skipped: only cpu-clock and task-clock samples "
                                       "measure time", n, ev));
    }
    if (samples.empty()) {
      r.error = s_.samples.empty() ? "no samples in the perf script output"
                                   : "no cpu-clock or task-clock samples (record with: perf record -g -e cpu-clock)";
      return r;
    }
    std::stable_sort(samples.begin(), samples.end(), [](auto* a, auto* b) { return a->time_ns < b->time_ns; });
    main_pid_ = samples.front()->pid;
    t0_ = samples.front()->time_ns;
    // Pass 1: every frame's object-relative address, and the span each object needs.
    for (const PerfSample* smp : samples)
      for (const PerfFrame& f : smp->frames)
        if (frame_kind(f) == FrameKind::File) {
          uint64_t v = vaddr_of(f, smp->pid);
          auto& o = objects_[f.dso];
          o.min_vaddr = std::min(o.min_vaddr, v);
          o.max_vaddr = std::max(o.max_vaddr, v);
        }
    place_objects(&r.warnings);

    format::HostExperimentWriter w(dir_);
    if (!w.ok()) {
      r.error = w.error();
      return r;
    }
    uint64_t interval = median_period(samples);
    std::string exe = executable();
    w.log_line(fmt::format("0 collect version={} command={} target={} args=\"\" cwd=\"\"", ERKIT_VERSION,
                           common::quote_value(cmd_), common::quote_value(exe)));
    w.log_line(fmt::format("0 setting name=clock interval_ns={}", interval));
    w.log_line(fmt::format("0 setting name=import source=perf"));
    std::string run;  // what perf's header told (issue 15: the header's fields were blank)
    if (!run_.host.empty()) run += " host=" + common::quote_value(run_.host);
    if (!run_.arch.empty()) run += " arch=" + common::quote_value(run_.arch);
    if (!run_.os.empty()) run += " os=" + common::quote_value(run_.os);
    if (run_.ncpus > 0) run += fmt::format(" ncpus={}", run_.ncpus);
    if (run_.realtime_ns > 0) run += fmt::format(" realtime_ns={}", run_.realtime_ns);
    w.log_line(fmt::format("0 start pid={} ppid=-1 exe={} clock_interval_ns={}{}", main_pid_, common::quote_value(exe),
                           interval, run));
    for (const auto& [path, o] : objects_) w.load_object(path, o.bias, o.lo, o.hi, "-", 0);
    for (const auto& wmsg : r.warnings) w.log_line(fmt::format("0 warning text={}", common::quote_value(wmsg)));

    std::map<int64_t, std::pair<uint64_t, uint64_t>> threads;  // tid -> first, last time
    std::map<int64_t, uint64_t> last_time;
    std::vector<uint64_t> pcs;
    for (const PerfSample* smp : samples) {
      bool in_kernel = false;
      pcs.clear();
      for (size_t i = 0; i < smp->frames.size(); ++i) {
        const PerfFrame& f = smp->frames[i];
        switch (frame_kind(f)) {
          case FrameKind::Kernel:
            if (pcs.empty()) in_kernel = true;  // the sample hit the kernel: system time
            break;
          case FrameKind::File:
            pcs.push_back(objects_[f.dso].bias + vaddr_of(f, smp->pid));
            break;
          case FrameKind::Unknown:
            if (pcs.empty() || pcs.back() != format::kUnwindFailedPc) pcs.push_back(format::kUnwindFailedPc);
            break;
        }
      }
      if (pcs.empty()) pcs.push_back(format::kUnwindFailedPc);
      if (pcs.size() > format::kMaxStackFrames) {
        pcs.resize(format::kMaxStackFrames);
        pcs.back() = format::kTruncatedMarkerPc;
      }
      uint64_t t = smp->time_ns - t0_;
      uint64_t ns = smp->period;
      if (ns == 0) {  // no period printed: the time since the thread's previous sample
        auto it = last_time.find(smp->tid);
        ns = it == last_time.end() ? interval : t - it->second;
      }
      last_time[smp->tid] = t;
      format::ClockSampleRecord rec{};
      rec.tid = uint32_t(smp->tid);
      rec.tstamp_ns = t;
      rec.stack_id = w.stack(pcs);
      rec.cpu = -1;
      rec.flags = smp->tid == main_pid_ ? format::kClockFlagMainThread : 0;
      rec.ns[in_kernel ? format::kMsSystem : format::kMsUser] = ns;
      w.clock_sample(rec);
      auto [it, inserted] = threads.try_emplace(smp->tid, t, t);
      it->second.second = t;
      ++r.samples;
    }
    uint64_t last = 0;
    for (const auto& [tid, span] : threads) {
      uint64_t start = span.first >= interval ? span.first - interval : 0;
      w.log_line(fmt::format("{} thread_start tid={}", start, tid));
      w.log_line(fmt::format("{} thread_end tid={}", span.second, tid));
      last = std::max(last, span.second);
    }
    w.log_line(fmt::format("{} exit how=imported", last));
    w.finish();
    r.threads = threads.size();
    r.ok = true;
    return r;
  }

 private:
  struct Object {
    uint64_t min_vaddr = UINT64_MAX, max_vaddr = 0;
    uint64_t bias = 0, lo = 0, hi = 0;
  };

  const std::vector<Segment>& segments(const std::string& path) {
    auto it = segments_.find(path);
    if (it == segments_.end()) it = segments_.emplace(path, load_segments(path)).first;
    return it->second;
  }

  uint64_t offset_to_vaddr(const std::string& path, uint64_t off) {
    for (const Segment& s : segments(path))
      if (off >= s.offset && off < s.offset + std::max<uint64_t>(s.filesz, 1)) return s.vaddr + (off - s.offset);
    return off;  // unreadable file: offsets and addresses usually agree for code
  }

  // The executable mapping of `path` in process pid (or any process) containing ip.
  const PerfMmap* mapping(const std::string& path, int64_t pid, uint64_t ip) const {
    const PerfMmap* any = nullptr;
    for (const auto& m : s_.mmaps) {
      if (m.path != path || ip < m.start || ip - m.start >= m.len) continue;
      if (m.pid == pid) return &m;
      if (!any) any = &m;
    }
    return any;
  }

  // perf 6 prints the object-relative address of code in a mapped file; older versions the
  // absolute one. An ip inside a recorded mapping of its file is absolute.
  uint64_t vaddr_of(const PerfFrame& f, int64_t pid) {
    if (const PerfMmap* m = mapping(f.dso, pid, f.ip)) return offset_to_vaddr(f.dso, f.ip - m->start + m->pgoff);
    return f.ip;
  }

  void place_objects(std::vector<std::string>* warnings) {
    for (auto& [path, o] : objects_) {
      const PerfMmap* m = nullptr;
      for (const auto& mm : s_.mmaps) {
        if (mm.path != path || mm.prot.find('x') == std::string::npos) continue;
        if (!m || (mm.pid == main_pid_ && m->pid != main_pid_)) m = &mm;
      }
      if (m) {
        o.bias = m->start - offset_to_vaddr(path, m->pgoff);
        o.lo = std::min(m->start, o.bias + o.min_vaddr);
        o.hi = std::max(m->start + m->len, o.bias + o.max_vaddr + 1);
      }
    }
    // Objects without a recorded mapping, or placements that collide (several processes),
    // get separate synthetic ranges: only their relative addresses matter for symbols.
    bool overlap = false;
    for (auto a = objects_.begin(); a != objects_.end(); ++a)
      for (auto b = std::next(a); b != objects_.end(); ++b)
        if (a->second.hi && b->second.hi && a->second.lo < b->second.hi && b->second.lo < a->second.hi) overlap = true;
    uint64_t next = 0x200000000000ull;
    for (auto& [path, o] : objects_) {
      if (o.hi && !overlap) continue;
      uint64_t span = o.max_vaddr - std::min(o.min_vaddr, o.max_vaddr) + 1;
      o.bias = next - (o.min_vaddr & ~0xfffull);
      o.lo = o.bias + o.min_vaddr;
      o.hi = o.bias + o.max_vaddr + 1;
      next += ((span + 0xfffffull) & ~0xfffffull) + 0x100000ull;
    }
    if (overlap) warnings->push_back("mappings of several processes overlap: load objects were given separate address ranges");
  }

  uint64_t median_period(const std::vector<const PerfSample*>& samples) const {
    std::vector<uint64_t> p;
    for (const PerfSample* s : samples)
      if (s->period) p.push_back(s->period);
    if (p.empty()) {
      std::map<int64_t, uint64_t> last;
      for (const PerfSample* s : samples) {
        auto it = last.find(s->tid);
        if (it != last.end() && s->time_ns > it->second) p.push_back(s->time_ns - it->second);
        last[s->tid] = s->time_ns;
      }
    }
    if (p.empty()) return 1000000;
    std::nth_element(p.begin(), p.begin() + long(p.size() / 2), p.end());
    return p[p.size() / 2];
  }

  // The main process's first executable mapping: the program itself (the kernel maps it first).
  std::string executable() const {
    for (const auto& m : s_.mmaps)
      if (m.pid == main_pid_ && m.prot.find('x') != std::string::npos && !m.path.empty() && m.path[0] == '/') return m.path;
    return "";
  }

  // perf's own inline expansion (without --no-inline) prints frames of the object that follows
  // them as "(inlined)", repeating the PC: those join that object and repeats go. Unknown
  // frames beyond the outermost known one are the unwinder reading past the stack's end.
  static void clean_frames(std::vector<PerfFrame>* frames) {
    auto& f = *frames;
    for (size_t i = f.size(); i-- > 0;)
      if (f[i].dso == "inlined") f[i].dso = i + 1 < f.size() ? f[i + 1].dso : "[unknown]";
    f.erase(std::unique(f.begin(), f.end(), [](const PerfFrame& a, const PerfFrame& b) { return a.ip == b.ip && a.dso == b.dso; }),
            f.end());
    size_t keep = f.size();
    while (keep > 0 && frame_kind(f[keep - 1]) == FrameKind::Unknown) --keep;
    bool any_known = false;
    for (size_t i = 0; i < keep; ++i) any_known |= frame_kind(f[i]) == FrameKind::File;
    if (any_known) f.resize(keep);
  }

  const PerfScript& s_;
  std::deque<PerfSample> cleaned_;  // clock samples with cleaned frames (stable addresses)
  std::string dir_, cmd_;
  PerfRunInfo run_;
  int64_t main_pid_ = -1;
  uint64_t t0_ = 0;
  std::map<std::string, Object> objects_;
  std::map<std::string, std::vector<Segment>> segments_;
};

}  // namespace

ImportResult import_perf_script(const PerfScript& script, const std::string& dir, const std::string& command_line,
                                const PerfRunInfo& run) {
  return Importer(script, dir, command_line, run).run();
}

bool is_perf_data(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, sizeof magic);
  return in && std::memcmp(magic, "PERFILE2", 8) == 0;
}

namespace {

// Runs argv without a shell (posix_spawnp) and collects its stdout and stderr through pipes:
// no temporary file, so nothing in /tmp another user could have planted (a link to a file of
// ours, a FIFO) is ever opened. Returns the wait status, -1 if it could not be started.
int run_captured(const std::vector<std::string>& args, std::string* out, std::string* err) {
  int po[2], pe[2];
  if (pipe2(po, O_CLOEXEC) != 0) return -1;
  if (pipe2(pe, O_CLOEXEC) != 0) {
    close(po[0]);
    close(po[1]);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, po[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(po[1]);
  close(pe[1]);
  if (rc != 0) {
    close(po[0]);
    close(pe[0]);
    *err = fmt::format("cannot run {}: {}", args[0], std::strerror(rc));
    return -1;
  }
  pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  std::string* sinks[2] = {out, err};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        // perf's diagnostics are kept to their first 64 KiB.
        if (i == 0 || sinks[i]->size() < 65536) sinks[i]->append(buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = -1;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

std::string run_perf_header(const std::string& perf_data, const std::string& perf) {
  std::string out, err;
  return run_captured({perf, "report", "--header-only", "-i", perf_data}, &out, &err) == 0 ? out : "";
}

std::string run_perf_script(const std::string& perf_data, const std::string& perf, std::string* error) {
  auto attempt = [&](const std::string& fields, std::string* err) {
    // --no-inline: erkit expands inlined calls itself, from the PCs.
    std::string out;
    err->clear();
    int status = run_captured({perf, "script", "-i", perf_data, "--ns", "--no-inline", "--show-mmap-events", "-F", fields},
                              &out, err);
    return std::pair<int, std::string>{status, out};
  };
  std::string err;
  auto [status, text] = attempt("pid,tid,time,period,event,ip,dso", &err);
  if (status != 0) {
    // Recordings with a fixed period (-c) have no per-sample period field.
    std::tie(status, text) = attempt("pid,tid,time,event,ip,dso", &err);
  }
  if (status != 0) {
    while (!err.empty() && err.back() == '\n') err.pop_back();
    *error = fmt::format("'{} script' failed on {}{}", perf, perf_data, err.empty() ? "" : ": " + err);
    return "";
  }
  return text;
}

}  // namespace erkit::exporters
