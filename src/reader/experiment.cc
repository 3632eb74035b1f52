#include "reader/experiment.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <unordered_map>
#include <thread>

#include "common/progress.h"
#include "common/text_escape.h"
#include "reader/load_object_archives.h"
#include "reader/gprofng_experiment.h"
#include "reader/data_file.h"
#include "reader/lifecycle.h"
#include "reader/record_bounds.h"
#include "reader/text_file.h"
#include "format/clock_compact.h"
#include "format/log_keys.h"
#include "format/outside_sampler.h"
#include "reader/time_order.h"

namespace erkit::reader {
namespace log_event = format::log_event;
namespace log_key = format::log_key;
namespace log_setting = format::log_setting;
namespace {

namespace fs = std::filesystem;
using common::parse_text_event;
using common::TextEvent;

// Calls fn for each complete line of a text file, in bounded memory (reader/text_file.h).
template <typename Fn>
TextFileResult for_each_line(const std::string& path, Fn fn) {
  return read_text_lines(path, [&](std::string_view line, uint64_t lineno) { fn(line, size_t(lineno)); });
}

// What a text file's reading found wrong besides its lines: it could not be opened, or it is
// damaged (holes, overlong lines, absurd size).
void report_text_file(Experiment& e, const std::string& file, const TextFileResult& r) {
  if (!r.opened) e.problems.push_back({file, r.open_problem()});
  else if (std::string d = r.damage(); !d.empty()) e.problems.push_back({file, d});
}

// Malformed lines of a text file, reported once per file rather than once per line (a file
// overwritten with garbage would otherwise print thousands of warnings).
struct MalformedLines {
  size_t count = 0, first = 0;
  void add(size_t lineno) {
    if (count++ == 0) first = lineno;
  }
  void report(Experiment& e, const std::string& file) const {
    if (count == 1) e.problems.push_back({file, fmt::format("line {} is malformed and was skipped", first)});
    if (count > 1)
      e.problems.push_back({file, fmt::format("{} malformed lines were skipped (the first is line {})", count, first)});
  }
};

// Checks a text file's first line "<magic> <version>"; returns false (with a problem) if the
// file is not of this kind. A different version is reported but the file is still read.
bool check_text_header(Experiment& e, const std::string& file, std::string_view line, const char* magic_word,
                       int* version) {
  std::string magic = std::string(magic_word) + " ";
  if (line.substr(0, magic.size()) != magic) {
    e.problems.push_back({file, fmt::format("first line is not an erkit {} header", file)});
    return false;
  }
  *version = std::atoi(std::string(line.substr(magic.size())).c_str());
  if (*version != int(format::kFormatVersion))
    e.problems.push_back({file, fmt::format("format version {} is not supported (this erkit reads version {}); "
                                            "reading what is recognisable",
                                            line.substr(magic.size()), format::kFormatVersion)});
  return true;
}

void read_log(Experiment& e) {
  std::string file = format::kLogFile;
  MalformedLines malformed;
  size_t lines = 0;
  auto r = for_each_line(e.path + "/" + file, [&](std::string_view line, size_t lineno) {
    lines = lineno;
    if (lineno == 1) {
      check_text_header(e, file, line, format::kLogMagic, &e.log.format_version);
      return;
    }
    auto ev = parse_text_event(line);
    if (!ev) {
      malformed.add(lineno);
      return;
    }
    RunLog& l = e.log;
    l.last_event_ns = std::max(l.last_event_ns, ev->tstamp_ns);
    const std::string& n = ev->name;
    if (n == log_event::kCollect) {
      l.collect_version = ev->get(log_key::kVersion);
      l.command = ev->get(log_key::kCommand);
      l.target = ev->get(log_key::kTarget);
      l.args = ev->get(log_key::kArgs);
      l.cwd = ev->get(log_key::kCwd);
    } else if (n == log_event::kHwc) {
      auto idx = ev->get_int(log_key::kIndex).value_or(-1);
      if (idx >= 0 && idx < 64) {
        if (l.hwc_counters.size() <= size_t(idx)) l.hwc_counters.resize(size_t(idx) + 1);
        l.hwc_counters[size_t(idx)] = ev->fields;
      }
    } else if (n == log_event::kCpuClock) {
      l.cpu_khz = uint64_t(std::max<int64_t>(0, ev->get_int(log_key::kKhz).value_or(0)));
    } else if (n == log_event::kSetting) {
      l.settings[ev->get(log_key::kName)] = ev->fields;
      if (ev->get(log_key::kName) == log_setting::kClock)
        l.clock_interval_ns = uint64_t(ev->get_int(log_key::kIntervalNs).value_or(0));
      if (ev->get(log_key::kName) == log_setting::kKernel) {
        l.kernel = true;
        l.kernel_threads = ev->get_int(log_key::kThreads).value_or(0) > 0;
      }
    } else if (n == log_event::kStart) {
      l.pid = ev->get_int(log_key::kPid).value_or(-1);
      l.ppid = ev->get_int(log_key::kPpid).value_or(-1);
      l.exe = ev->get(log_key::kExe);
      l.host = ev->get(log_key::kHost);
      l.arch = ev->get(log_key::kArch);
      l.os = ev->get(log_key::kOs);
      l.ncpus = ev->get_int(log_key::kNcpus).value_or(0);
      l.pagesize = ev->get_int(log_key::kPagesize).value_or(0);
      l.realtime_start_ns = ev->get_int(log_key::kRealtimeNs).value_or(0);
      l.monotonic_start_ns = ev->get_int(log_key::kMonotonicNs).value_or(0);
      if (auto ci = ev->get_int(log_key::kClockIntervalNs)) l.clock_interval_ns = uint64_t(*ci);
    } else if (n == log_event::kTarget) {
      if (l.pid < 0) l.pid = ev->get_int(log_key::kPid).value_or(-1);
    } else if (n == log_event::kThreadStart) {
      auto tid = uint32_t(ev->get_int(log_key::kTid).value_or(0));
      l.threads[tid].tid = tid;
      l.threads[tid].start_ns = ev->tstamp_ns;
      l.threads[tid].start_routine = uint64_t(ev->get_int(log_key::kStart).value_or(0));
    } else if (n == log_event::kThreadEnd) {
      auto tid = uint32_t(ev->get_int(log_key::kTid).value_or(0));
      l.threads[tid].tid = tid;
      l.threads[tid].end_ns = ev->tstamp_ns;
    } else if (n == log_event::kTask) {  // er_kernel: a sampled task's process and name
      auto tid = uint32_t(ev->get_int(log_key::kTid).value_or(0));
      l.task_pid[tid] = uint32_t(ev->get_int(log_key::kPid).value_or(0));
      l.task_comm[tid] = ev->get(log_key::kComm);
    } else if (n == log_event::kFile) {
      l.files[uint32_t(ev->get_int(log_key::kId).value_or(0))] = ev->fields;
    } else if (n == log_event::kMpiRank) {
      l.mpi_rank = ev->get_int(log_key::kRank).value_or(l.mpi_rank);
      l.mpi_size = ev->get_int(log_key::kSize).value_or(l.mpi_size);
    } else if (n == log_event::kWarning) {
      l.warnings.emplace_back(ev->tstamp_ns, ev->get(log_key::kText));
    } else if (read_lifecycle_event(l, *ev)) {
      // descendants, pause/resume, -L, exec failures: reader/lifecycle.cc
    } else if (n == log_event::kExit) {
      l.collector_exit = ev->get(log_key::kHow);
      l.limit_reached = l.limit_reached || ev->get(log_key::kLimitReached) == "1";
      if (auto st = ev->get_int(log_key::kStatus)) l.exit_status = *st;
      if (ev->get_int(format::kCostSignals)) {
        auto field = [&](const char* k) { return uint64_t(std::max<int64_t>(0, ev->get_int(k).value_or(0))); };
        l.cost.known = true;
        l.cost.signals = field(format::kCostSignals);
        l.cost.signal_ns = field(format::kCostSignalNs);
        l.cost.helper_cpu_ns = field(format::kCostHelperCpuNs);
        l.cost.start_cpu_ns = field(format::kCostStartCpuNs);
        l.cost.exit_cpu_ns = field(format::kCostExitCpuNs);
        l.cost.process_cpu_ns = field(format::kCostProcessCpuNs);
      }
    } else if (n == log_event::kEnd) {
      l.end_how = ev->get(log_key::kHow);
      l.end_status = ev->get_int(l.end_how == "signal" ? log_key::kSignal : log_key::kStatus).value_or(-1);
      l.end_signal_name = ev->get(log_key::kName);
    }
  });
  malformed.report(e, file);
  report_text_file(e, file, r);
  if (r.opened && lines == 0 && r.damage().empty()) e.problems.push_back({file, "empty (no complete line)"});
}

void read_map(Experiment& e) {
  std::string file = format::kMapFile;
  MalformedLines malformed;
  size_t lines = 0;
  auto r = for_each_line(e.path + "/" + file, [&](std::string_view line, size_t lineno) {
    lines = lineno;
    if (lineno == 1) {
      int version = 0;
      check_text_header(e, file, line, format::kMapMagic, &version);
      return;
    }
    auto ev = parse_text_event(line);
    if (!ev) {
      malformed.add(lineno);
      return;
    }
    if (ev->name == log_event::kLoad) {
      LoadObject o;
      o.path = ev->get(log_key::kPath);
      if (!o.path.empty() && o.path[0] != '/') o.path = e.path + "/" + o.path;
      o.build_id = ev->get(log_key::kBuildId);
      if (o.build_id == "-") o.build_id.clear();
      o.bias = uint64_t(ev->get_int(log_key::kBias).value_or(0));
      o.lo = uint64_t(ev->get_int(log_key::kLo).value_or(0));
      o.hi = uint64_t(ev->get_int(log_key::kHi).value_or(0));
      o.load_ns = ev->tstamp_ns;
      e.objects.push_back(std::move(o));
    } else if (read_dynamic_map_event(e, *ev)) {
      // collector_func_load/unload: reader/lifecycle.cc
    } else if (ev->name == log_event::kUnload) {
      uint64_t lo = uint64_t(ev->get_int(log_key::kLo).value_or(0));
      for (auto& o : e.objects)
        if (o.lo == lo && o.unload_ns == UINT64_MAX) o.unload_ns = ev->tstamp_ns;
    }
  });
  malformed.report(e, file);
  report_text_file(e, file, r);
  if (r.opened && lines == 0 && r.damage().empty()) e.problems.push_back({file, "empty (no complete line)"});
}

template <typename Rec>
bool copy_record(const uint8_t* p, uint32_t size, Rec* out) {
  if (size != sizeof(Rec)) return false;
  std::memcpy(out, p, sizeof(Rec));
  return true;
}

// Values no real run produces (one sample standing for over 2^48 ns, about 3 days, of a state;
// an allocation, wait or transfer beyond 2^48): such records are damage, and adding them up
// would overflow the 64-bit metrics (found by fuzz_reader, issue 11).
constexpr uint64_t kMaxPlausible = uint64_t(1) << 48;
bool plausible(const format::ClockSampleRecord& r) {
  for (uint64_t ns : r.ns)
    if (ns > kMaxPlausible) return false;
  return true;
}
bool plausible(const format::HeapEvent& r) { return r.size <= kMaxPlausible; }
bool plausible(const format::SyncEventRecord& r) { return r.wait_ns <= kMaxPlausible; }
bool plausible(const format::MpiEventRecord& r) {
  return r.duration_ns <= kMaxPlausible && r.bytes_sent <= kMaxPlausible && r.bytes_received <= kMaxPlausible;
}
bool plausible(const format::IoEventRecord& r) {
  return r.duration_ns <= kMaxPlausible && r.bytes >= -1 && r.bytes <= int64_t(kMaxPlausible);
}

// How many records of v pred holds for, the records split over the machine's cores when
// there are millions (pred must only read shared state).
template <typename V, typename Pred>
uint64_t count_parallel(const V& v, Pred pred) {
  constexpr size_t kPerWorker = size_t(1) << 20;
  size_t workers = std::clamp<size_t>(v.size() / kPerWorker, 1, std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  std::vector<uint64_t> counts(workers);
  auto part = [&](size_t w) {
    uint64_t n = 0;
    for (size_t i = v.size() * w / workers, end = v.size() * (w + 1) / workers; i < end; ++i) n += pred(v[i]);
    counts[w] = n;
  };
  std::vector<std::thread> pool;
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(part, w);
  part(0);
  for (auto& t : pool) t.join();
  uint64_t n = 0;
  for (uint64_t c : counts) n += c;
  return n;
}

// The ids of e.stacks in a flat open-addressing table for the orphan count, which looks up
// every event's stack: one probe touches one cache line, where the node-based map takes two or
// three (11 % of the function list's CPU at 10 M samples, perf; docs/performance.md).
class StackIdSet {
 public:
  explicit StackIdSet(const std::unordered_map<uint64_t, std::vector<uint64_t>>& stacks) {
    size_t size = 16;
    while (size < stacks.size() * 2) size *= 2;
    slots_.assign(size, 0);
    for (const auto& kv : stacks) {
      if (kv.first == format::kNoStackId) continue;  // never looked up
      size_t i = hash(kv.first) & (size - 1);
      while (slots_[i] != 0) i = (i + 1) & (size - 1);
      slots_[i] = kv.first;
    }
  }
  bool contains(uint64_t id) const {  // id != kNoStackId
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash(id) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == id) return true;
      if (slots_[i] == 0) return false;
    }
  }

 private:
  static size_t hash(uint64_t k) { return size_t((k * 0x9E3779B97F4A7C15ull) >> 17); }
  std::vector<uint64_t> slots_;  // 0: empty
};

// The data kind the log says was recorded, or "" (seed-spec: collect writes a setting line per
// kind; the collector creates every data file when it starts).
std::string recorded_kind(const RunLog& l, format::DataKind kind) {
  auto get = [&](const char* name, const char* key) {
    auto it = l.settings.find(name);
    if (it == l.settings.end()) return std::string();
    auto f = it->second.find(key);
    return f == it->second.end() ? std::string() : f->second;
  };
  switch (kind) {
    // stacks: events without their stacks are reported below, with their count.
    case format::DataKind::kProfile: {
      std::string v = get(log_setting::kClock, log_key::kIntervalNs);
      return !v.empty() && v != "0" ? "clock profiling" : "";
    }
    case format::DataKind::kHeap: return get(log_setting::kHeap, log_key::kOn) == "1" ? "heap tracing" : "";
    case format::DataKind::kSync: {
      std::string v = get(log_setting::kSync, log_key::kValue);
      return !v.empty() && v != "off" ? "synchronization tracing" : "";
    }
    case format::DataKind::kIo: return get(log_setting::kIo, log_key::kOn) == "1" ? "I/O tracing" : "";
    // Written only where counters were asked for (issue 18): absent without hwc lines is normal.
    case format::DataKind::kHwc: return l.hwc_counters.empty() ? "" : "hardware-counter profiling";
    default: return "";
  }
}

// A data file that could not be opened (issue 12: a missing or unreadable profile showed
// zeros with no warning). Unreadable is always reported; absent only when the log says the
// collector ran (its start line) with that kind on, since it creates every file of a kind
// that is on at start ("hwcounters" only with counters; older experiments have it always).
void report_absent_data_file(Experiment& e, format::DataKind kind, int err) {
  std::string file = format::kDataFileNames[uint32_t(kind)];
  std::string what = recorded_kind(e.log, kind);
  if (err == ENOENT) {
    if (!what.empty() && e.log.ncpus > 0)
      e.problems.push_back({file, fmt::format("missing, although the log says {} was on: its data is lost", what)});
    return;
  }
  std::string why = err == EACCES || err == EPERM ? "permission denied" : std::strerror(err);
  e.problems.push_back({file, what.empty() ? fmt::format("cannot be read: {}", why)
                                           : fmt::format("cannot be read: {} ({} was on: its data is not shown)", why, what)});
}

// Wait CPU written by collect's outside sampler without a stack goes to the stack of the same
// thread's latest CPU sample before it, else its first one after (format/outside_sampler.h).
// e.clock is sorted by time.
void place_outside_waits(Experiment& e) {
  std::unordered_map<uint32_t, uint64_t> last_cpu;
  std::unordered_map<uint32_t, std::vector<size_t>> unplaced;
  for (size_t i = 0; i < e.clock.size(); ++i) {
    auto& c = e.clock[i];
    bool outside = c.flags & format::kClockFlagOutside;
    if (!outside && !(c.flags & format::kClockFlagBlockedSample) && c.stack_id != format::kNoStackId) {
      last_cpu[c.tid] = c.stack_id;
      auto it = unplaced.find(c.tid);
      if (it != unplaced.end()) {
        for (size_t j : it->second) e.clock[j].stack_id = c.stack_id;
        unplaced.erase(it);
      }
    } else if (outside && c.stack_id == format::kNoStackId) {
      auto it = last_cpu.find(c.tid);
      if (it != last_cpu.end()) c.stack_id = it->second;
      else unplaced[c.tid].push_back(i);
    }
  }
}

void read_data(Experiment& e) {
  common::Progress progress("reading", e.path);  // records, on a terminal after 1 s
  // Every kind's file, then the files of collect's outside sampler (format/outside_sampler.h).
  const uint32_t kOutsideKinds[] = {uint32_t(format::DataKind::kStacks), uint32_t(format::DataKind::kProfile),
                                    uint32_t(format::DataKind::kOverview)};
  const uint32_t nfiles = uint32_t(format::DataKind::kCount) + uint32_t(std::size(kOutsideKinds));
  bool outside_samples = false;  // periodic samples collect took (overview.outside)
  for (uint32_t i = 0; i < nfiles; ++i) {
    const bool outside = i >= uint32_t(format::DataKind::kCount);
    const uint32_t k = outside ? kOutsideKinds[i - uint32_t(format::DataKind::kCount)] : i;
    auto kind = format::DataKind(k);
    std::string file = std::string(format::kDataFileNames[k]) + (outside ? format::kOutsideSuffix : "");
    std::vector<std::string> msgs;
    uint64_t bad = 0, implausible = 0;
    // Room for every record the file can hold, reserved (not touched) up front: growing a
    // vector of 10 M samples by doubling would copy it and hold both copies at once.
    if (struct stat sb; stat((e.path + "/" + file).c_str(), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
      size_t bytes = size_t(sb.st_size);
      try {  // an address-space limit may refuse the reservation: then the vectors grow as they fill
        // Compact samples (format/clock_compact.h) take 16 to 24 bytes: reserve for 24.
        if (kind == format::DataKind::kProfile) e.clock.reserve(bytes / 24);
        if (kind == format::DataKind::kHeap) e.heap.reserve(bytes / sizeof(format::HeapFreeRecord));  // the smallest
        if (kind == format::DataKind::kSync) e.sync.reserve(bytes / sizeof(format::SyncEventRecord));
        if (kind == format::DataKind::kIo) e.io.reserve(bytes / sizeof(format::IoEventRecord));
      } catch (const std::exception&) {
      }
    }
    // Compact clock samples decode against the previous one of their block; after an incomplete
    // or corrupt record the rest of the block cannot be decoded (counted in `undecodable`).
    format::ClockCompactBase cbase{};
    bool cvalid = true;
    uint64_t undecodable = 0;
    auto on_break = [&](bool block_start) {
      cbase = format::ClockCompactBase{};
      cvalid = block_start;
    };
    auto st = read_data_file(e.path + "/" + file, kind, [&](uint32_t rk, const uint8_t* p, uint32_t size) {
      progress.tick();
      switch (rk) {
        case format::kRecClockCompact: {
          format::ClockFields f;
          if (!cvalid) { ++undecodable; return; }
          if (!format::decode_clock_compact(&cbase, p, size, &f)) { ++bad; cvalid = false; return; }
          bool ok = true;
          for (uint64_t ns : f.ns) ok = ok && ns <= kMaxPlausible;
          if (!ok) { ++implausible; return; }
          ClockSample s{f.tstamp_ns, f.stack_id, f.tid, f.cpu, f.flags, 0, {}};
          std::memcpy(s.ns, f.ns, sizeof s.ns);
          e.clock.push_back(s);
          return;
        }
        case format::kRecStack: {
          format::StackRecord h;
          if (size < sizeof h) { ++bad; return; }
          std::memcpy(&h, p, sizeof h);
          if (sizeof h + uint64_t(h.nframes) * 8 != size) { ++bad; return; }
          auto [it, inserted] = e.stacks.try_emplace(h.id);
          if (inserted) {
            it->second.resize(h.nframes);
            std::memcpy(it->second.data(), p + sizeof h, size_t(h.nframes) * 8);
          }
          return;
        }
        case format::kRecClockSample: {
          format::ClockSampleRecord r;
          if (!copy_record(p, size, &r)) { ++bad; return; }
          if (!plausible(r)) { ++implausible; return; }
          ClockSample s{r.tstamp_ns, r.stack_id, r.tid, r.cpu, r.flags, 0, {}};
          std::memcpy(s.ns, r.ns, sizeof s.ns);
          e.clock.push_back(s);
          return;
        }
        case format::kRecClockSampleOmp: {
          format::ClockSampleOmpRecord r;
          if (!copy_record(p, size, &r)) { ++bad; return; }
          bool ok = r.omp_state < format::kOmpStateCount;
          for (uint64_t ns : r.ns) ok = ok && ns <= kMaxPlausible;
          if (!ok) { ++implausible; return; }
          ClockSample s{r.tstamp_ns, r.stack_id, r.tid, r.cpu, r.flags, r.omp_state, {}, r.fork_stack_id};
          std::memcpy(s.ns, r.ns, sizeof s.ns);
          e.clock.push_back(s);
          return;
        }
        case format::kRecOmpRegion: {
          format::OmpRegionRecord r;
          if (!copy_record(p, size, &r)) ++bad;
          else if (r.duration_ns > kMaxPlausible) ++implausible;
          else e.omp_regions.push_back(r);
          return;
        }
        case format::kRecOmpTask: {
          format::OmpTaskRecord r;
          if (!copy_record(p, size, &r)) ++bad;
          else if (r.duration_ns > kMaxPlausible) ++implausible;
          else e.omp_tasks.push_back(r);
          return;
        }
        case format::kRecOverviewSample: {
          OverviewSample s;
          if (!copy_record(p, size, &s.rec)) { ++bad; return; }
          outside_samples = outside_samples || outside;
          e.samples.push_back(s);
          return;
        }
        case format::kRecHeapAlloc:
        case format::kRecHeapFree:
        case format::kRecHeapRealloc:
        case format::kRecHeapMmap:
        case format::kRecHeapMunmap:
        case format::kRecHeapJavaAlloc:
        case format::kRecHeapJavaSample:
        case format::kRecLegacyHeapEvent: {
          format::HeapEvent r;
          if (!format::decode_heap_record(rk, p, size, &r)) ++bad;
          else if (!plausible(r)) ++implausible;
          else e.heap.push_back(r);
          return;
        }
        case format::kRecSyncEvent: {
          format::SyncEventRecord r;
          if (!copy_record(p, size, &r)) ++bad;
          else if (!plausible(r)) ++implausible;
          else e.sync.push_back(r);
          return;
        }
        case format::kRecIoEvent: {
          format::IoEventRecord r;
          if (!copy_record(p, size, &r)) ++bad;
          else if (!plausible(r)) ++implausible;
          else e.io.push_back(r);
          return;
        }
        case format::kRecHwcEvent: {
          format::HwcEventRecord r;
          if (!copy_record(p, size, &r)) ++bad;
          else e.hwc.push_back(r);
          return;
        }
        case format::kRecMpiEvent: {
          format::MpiEventRecord r;
          if (!copy_record(p, size, &r)) ++bad;
          else if (!plausible(r)) ++implausible;
          else e.mpi.push_back(r);
          return;
        }
        default: ++bad;
      }
    }, &msgs, on_break);
    for (auto& m : msgs) e.problems.push_back({file, m});
    if (undecodable)
      e.problems.push_back({file, fmt::format("{} compact clock samples after an incomplete or damaged record in "
                                              "their block could not be decoded and were skipped",
                                              undecodable)});
    if (st.open_error && !(outside && st.open_error == ENOENT)) report_absent_data_file(e, kind, st.open_error);
    if (bad) e.problems.push_back({file, fmt::format("{} records of unknown kind or wrong size skipped", bad)});
    if (implausible)
      e.problems.push_back({file, fmt::format("{} records with impossible values (damaged) skipped", implausible)});
    e.incomplete_records += st.incomplete;
  }
  validate_records(e);
  // Events whose call stack is not in the stacks file (deleted, truncated, or never flushed)
  // are kept, shown under <Unknown>, and reported once.
  uint64_t events = 0, orphans = 0;
  const StackIdSet known(e.stacks);
  auto count = [&](const auto& v) {
    events += v.size();
    orphans += count_parallel(v, [&](const auto& r) {
      return r.stack_id != format::kNoStackId && !known.contains(r.stack_id);
    });
  };
  count(e.clock);
  count(e.heap);
  count(e.sync);
  count(e.io);
  count(e.mpi);
  count(e.hwc);
  if (orphans)
    e.problems.push_back({format::kDataFileNames[uint32_t(format::DataKind::kStacks)],
                          fmt::format("{} of {} events refer to call stacks missing from the file; "
                                      "they are shown as <Unknown>",
                                      orphans, events)});
  auto time = [](const auto& r) { return r.tstamp_ns; };
  sort_by_time(e.clock, time);
  sort_by_time(e.heap, time);
  sort_by_time(e.sync, time);
  sort_by_time(e.io, time);
  sort_by_time(e.omp_regions, time);
  sort_by_time(e.samples, [](const OverviewSample& s) { return s.rec.tstamp_ns; });
  // The collector's samples and collect's (issue 16), each numbered by its writer: one
  // numbering, 1..N in time order, as a collector that took them all would have given.
  // collect may take a periodic sample while the collector is ending (between its end sample
  // and its exit line, which collect reads at its next look): one after the process's end
  // sample describes the ending process and is dropped.
  if (outside_samples) {
    auto end = std::find_if(e.samples.begin(), e.samples.end(), [](const OverviewSample& s) {
      return s.rec.reason == format::kSampleEnd;
    });
    if (end != e.samples.end())
      e.samples.erase(std::remove_if(std::next(end), e.samples.end(),
                                     [](const OverviewSample& s) { return s.rec.reason == format::kSamplePeriodic; }),
                      e.samples.end());
    for (size_t i = 0; i < e.samples.size(); ++i) e.samples[i].rec.number = uint32_t(i + 1);
  }
  sort_by_time(e.omp_tasks, time);
  place_outside_waits(e);
}

}  // namespace

uint64_t Experiment::duration_ns() const {
  uint64_t d = log.last_event_ns;
  if (!clock.empty()) d = std::max(d, clock.back().tstamp_ns);
  return d;
}

const LoadObject* Experiment::object_at(uint64_t pc, uint64_t t) const {
  const LoadObject* best = nullptr;
  for (const auto& o : objects) {
    if (pc < o.lo || pc >= o.hi) continue;
    // Prefer the mapping live at t; fall back to any that covered the pc.
    if (o.load_ns <= t && t < o.unload_ns) return &o;
    if (!best) best = &o;
  }
  return best;
}

std::vector<std::string> descendant_dirs(const std::string& path) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(path, ec)) {
    std::string n = d.path().filename().string();
    if (d.is_directory() && n.size() > 4 && n[0] == '_' && n.substr(n.size() - 3) == ".er")
      out.push_back(d.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool is_experiment_dir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
         stat((path + "/" + format::kLogFile).c_str(), &st) == 0;
}

OpenResult open_experiment(const std::string& path_in) {
  std::string path = path_in;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno == EACCES)
      return {std::nullopt, fmt::format("{}: cannot be read: permission denied (on a directory above it)", path)};
    return {std::nullopt, fmt::format("{}: no such experiment", path)};
  }
  if (!S_ISDIR(st.st_mode)) return {std::nullopt, fmt::format("{}: not an experiment directory", path)};
  // Issue 12: a directory of mode 000 was "not an experiment"; say why it cannot be opened.
  if (access(path.c_str(), R_OK | X_OK) != 0 && errno == EACCES)
    return {std::nullopt, fmt::format("{}: cannot be read: permission denied (the experiment directory is mode {:03o})",
                                      path, st.st_mode & 07777)};
  if (is_gprofng_experiment(path)) return open_gprofng_experiment(path);  // read-only import
  if (!is_experiment_dir(path))
    return {std::nullopt, fmt::format("{}: not an experiment (no '{}' file)", path, format::kLogFile)};
  Experiment e;
  e.path = path;
  e.name = fs::path(path).filename().string();
  read_log(e);
  read_map(e);
  read_data(e);
  read_dynamic_code(e);
  apply_archives(e);
  for_each_line(path + "/" + format::kNotesFile, [&](std::string_view l, size_t) { e.notes.emplace_back(l); });
  e.descendants = descendant_dirs(path);
  return {std::move(e), {}};
}

}  // namespace erkit::reader
