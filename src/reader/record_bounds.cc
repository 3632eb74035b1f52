#include "reader/record_bounds.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

namespace erkit::reader {
namespace {

// Counts of what was dropped from one data file, by reason.
struct Dropped {
  uint64_t late = 0, unknown_thread = 0, too_long = 0, too_many_bytes = 0, over_thread = 0;
  uint64_t total() const { return late + unknown_thread + too_long + too_many_bytes + over_thread; }
  void report(Experiment& e, format::DataKind kind, const RunBounds& b) const {
    if (!total()) return;
    std::string why;
    auto add = [&](uint64_t n, const std::string& s) {
      if (n) why += fmt::format("{}{} {}", why.empty() ? "" : ", ", n, s);
    };
    double end_s = double(b.end_ns) / 1e9;
    add(late, fmt::format("after the run's end ({:.3f} s)", end_s));
    add(unknown_thread, "of threads the log does not know");
    add(too_long, fmt::format("standing for more time than the run lasted ({:.3f} s)", end_s));
    add(too_many_bytes, "moving more bytes than an I/O call can");
    add(over_thread, fmt::format("beyond a thread's time in the run ({:.3f} s)", end_s));
    e.problems.push_back({format::kDataFileNames[uint32_t(kind)],
                          fmt::format("{} records with values outside the run's bounds (damaged) dropped: {}",
                                      total(), why)});
  }
};

__extension__ typedef unsigned __int128 u128;

uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

uint64_t sum_ns(const ClockSample& s) {
  uint64_t t = 0;
  for (uint64_t v : s.ns) t += v;  // each <= 2^48 (checked while reading): no overflow
  return t;
}

// Keeps the records for which keep(r) is true.
template <typename V, typename Keep>
void keep_if(V& v, Keep keep) {
  v.erase(std::remove_if(v.begin(), v.end(), [&](const auto& r) { return !keep(r); }), v.end());
}

// Per thread, the time records stand for may not exceed the run's bound: the largest records
// of a thread over it are dropped until it is within (only damage gets there).
template <typename V, typename Time>
uint64_t cap_per_thread(V& v, uint64_t bound, Time time_of) {
  // 128-bit sums: a crafted file may hold millions of records near the 2^48 plausibility cap.
  std::map<uint32_t, u128> per_thread;
  {
    uint32_t last_tid = 0;
    u128* last = nullptr;  // records come in runs of one thread: look the map up per run
    for (const auto& r : v) {
      if (!last || r.tid != last_tid) last = &per_thread[r.tid], last_tid = r.tid;
      *last += time_of(r);
    }
  }
  std::set<uint32_t> over;
  for (const auto& [tid, t] : per_thread)
    if (t > bound) over.insert(tid);
  if (over.empty()) return 0;
  std::vector<size_t> order;
  for (size_t i = 0; i < v.size(); ++i)
    if (over.count(v[i].tid)) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return time_of(v[a]) > time_of(v[b]); });
  std::vector<bool> drop(v.size());
  uint64_t dropped = 0;
  for (size_t i : order) {
    u128& t = per_thread[v[i].tid];
    if (t <= bound) continue;
    t -= time_of(v[i]);
    drop[i] = true;
    ++dropped;
  }
  V kept;
  kept.reserve(v.size() - dropped);
  for (size_t i = 0; i < v.size(); ++i)
    if (!drop[i]) kept.push_back(v[i]);
  v.swap(kept);
  return dropped;
}

}  // namespace

RunBounds run_bounds(const RunLog& log) {
  RunBounds b;
  if (!log.collector_exit.empty() || log.exit_status >= 0) {
    b.time_known = true;
    b.end_ns = add_sat(log.last_event_ns, std::max(kEndSlackNs, log.last_event_ns / 2));
  }
  if (log.pid > 0 && log.pid <= int64_t(UINT32_MAX)) b.tids.insert(uint32_t(log.pid));
  for (const auto& [tid, t] : log.threads) b.tids.insert(tid);
  if (log.kernel) {  // er_kernel: every task it sampled has a "task" line; 0 is the idle task
    for (const auto& [tid, pid] : log.task_pid) b.tids.insert(tid);
    b.tids.insert(0);
  }
  return b;
}

void validate_records(Experiment& e) {
  RunBounds b = run_bounds(e.log);
  // Thread ids are checked only when the log describes the threads that wrote the data.
  bool check_tids = false;
  auto known = [&](uint32_t tid) { return b.tids.count(tid) != 0; };
  auto any_known = [&](const auto& v) {
    return std::any_of(v.begin(), v.end(), [&](const auto& r) { return known(r.tid); });
  };
  check_tids = any_known(e.clock) || any_known(e.sync) || any_known(e.io) || any_known(e.heap);

  // A record is classified by its first broken bound.
  uint32_t known_tid = 0;
  bool have_known = false;  // the last thread found known: records come in runs of one thread
  auto common = [&](uint64_t tstamp, uint32_t tid, Dropped& d) {
    if (b.time_known && tstamp > b.end_ns) return ++d.late, false;
    if (check_tids && !(have_known && tid == known_tid)) {
      if (!known(tid)) return ++d.unknown_thread, false;
      have_known = true, known_tid = tid;
    }
    return true;
  };
  {
    Dropped d;
    keep_if(e.clock, [&](const ClockSample& s) {
      if (!common(s.tstamp_ns, s.tid, d)) return false;
      if (b.time_known && sum_ns(s) > b.end_ns) return ++d.too_long, false;
      return true;
    });
    // A kernel experiment's idle task (tid 0) runs on every CPU at once.
    uint64_t per_thread = e.log.kernel ? b.end_ns * uint64_t(std::max<int64_t>(1, e.log.ncpus)) : b.end_ns;
    if (b.time_known) d.over_thread = cap_per_thread(e.clock, per_thread, sum_ns);
    d.report(e, format::DataKind::kProfile, b);
  }
  {
    Dropped d;
    keep_if(e.sync, [&](const format::SyncEventRecord& r) {
      if (!common(r.tstamp_ns, r.tid, d)) return false;
      if (b.time_known && r.wait_ns > b.end_ns) return ++d.too_long, false;
      return true;
    });
    if (b.time_known)
      d.over_thread = cap_per_thread(e.sync, b.end_ns, [](const format::SyncEventRecord& r) { return r.wait_ns; });
    d.report(e, format::DataKind::kSync, b);
  }
  {
    Dropped d;
    keep_if(e.io, [&](const format::IoEventRecord& r) {
      if (!common(r.tstamp_ns, r.tid, d)) return false;
      if (b.time_known && r.duration_ns > b.end_ns) return ++d.too_long, false;
      if (r.bytes > 0 && uint64_t(r.bytes) > kMaxRwCount + r.duration_ns * kMaxBytesPerNs)
        return ++d.too_many_bytes, false;
      return true;
    });
    if (b.time_known)
      d.over_thread = cap_per_thread(e.io, b.end_ns, [](const format::IoEventRecord& r) { return r.duration_ns; });
    d.report(e, format::DataKind::kIo, b);
  }
  {
    Dropped d;
    keep_if(e.heap, [&](const format::HeapEvent& r) { return common(r.tstamp_ns, r.tid, d); });
    d.report(e, format::DataKind::kHeap, b);
  }
  {
    Dropped d;
    keep_if(e.samples, [&](const OverviewSample& s) {
      if (b.time_known && s.rec.tstamp_ns > b.end_ns) return ++d.late, false;
      return true;
    });
    d.report(e, format::DataKind::kOverview, b);
  }
}

}  // namespace erkit::reader
