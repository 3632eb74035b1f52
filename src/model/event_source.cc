#include "model/event_source.h"

#include <cstring>
#include <unordered_map>

#include "format/mpi_functions.h"
#include "model/heap_leaks.h"
#include "model/java_alloc_estimate.h"
#include "model/mode_split.h"
#include "model/hwc_pseudo.h"
#include "model/raw_counter_metrics.h"

namespace erkit::model {
namespace {

}  // namespace

uint32_t omp_metric(uint32_t state) {
  switch (state) {
    case format::kOmpNone: case format::kOmpWork: return kOmpWork;
    case format::kOmpOverhead: return kOmpOver;
    default: return kOmpWait;
  }
}

bool has_omp_samples(const reader::Experiment& e) {
  for (const auto& s : e.clock)
    if (s.omp_state) return true;
  return !e.omp_regions.empty();
}

namespace {

void clock_events(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  EventRecord ev;
  ModeSplitter modes;  // User and System time to the code that ran in each mode
  std::vector<ModeSplitter::Share> moved;
  uint32_t main_tid = 0;
  // Experiments that flag no sample (older collectors, imports, kernel profiles) keep each
  // sample's time where it was sampled.
  bool split_modes = false;
  for (const auto& s : e.clock) split_modes |= (s.flags & format::kClockFlagInSyscall) != 0;
  auto emit_share = [&](const ModeSplitter::Share& share, bool main_thread) {
    EventRecord m{};
    m.tstamp_ns = share.tstamp_ns;
    m.stack_id = share.stack_id;
    m.tid = share.tid;
    m.cpu = -1;
    m.values[share.state] = m.values[kTotal] = int64_t(share.ns);
    if (main_thread) m.values[kWall] = int64_t(share.ns);
    fn(m);
  };
  // An OpenMP program: every sample is in one of OMP Work, Wait, Overhead (samples before the
  // runtime started are serial work).
  bool omp = has_omp_samples(e);
  for (const auto& s : e.clock) {
    std::memset(ev.values, 0, sizeof ev.values);
    ev.tstamp_ns = s.tstamp_ns;
    ev.stack_id = s.stack_id;
    ev.tid = s.tid;
    ev.cpu = s.cpu;
    ev.omp_state = 0;
    ev.omp_fork_stack = 0;
    if (s.flags & format::kClockFlagKernel) {  // er_kernel: KCPU Cycles, or Kthr Time of a -T thread
      int64_t ns = 0;
      for (uint32_t m = 0; m < format::kMsCount; ++m) ns += int64_t(s.ns[m]);
      ev.values[(s.flags & format::kClockFlagKernelThread) ? kKthr : kKcycles] = ns;
      fn(ev);
      continue;
    }
    uint64_t ns[format::kMsCount];
    std::memcpy(ns, s.ns, sizeof ns);
    moved.clear();
    if (split_modes && !(s.flags & format::kClockFlagBlockedSample))
      modes.split(s.tid, s.tstamp_ns, s.stack_id, (s.flags & format::kClockFlagInSyscall) != 0, ns,
                  &moved);
    int64_t total = 0;
    for (uint32_t m = 0; m < format::kMsCount; ++m) {
      ev.values[m] = int64_t(ns[m]);  // microstate order equals the first metric indices
      total += int64_t(ns[m]);
    }
    ev.values[kTotal] = total;
    if (s.flags & format::kClockFlagMainThread) ev.values[kWall] = total;
    ev.omp_state = s.omp_state;
    ev.omp_fork_stack = s.omp_fork_stack;
    ev.blocked = (s.flags & format::kClockFlagBlockedSample) != 0;
    if (omp) ev.values[omp_metric(s.omp_state)] = total;  // refined by Profile (openmp_view.h)
    if (total != 0 || !split_modes) fn(ev);
    for (const auto& share : moved) emit_share(share, (s.flags & format::kClockFlagMainThread) != 0);
    if (s.flags & format::kClockFlagMainThread) main_tid = s.tid;
  }
  moved.clear();
  modes.finish(&moved);
  for (const auto& share : moved) emit_share(share, share.tid == main_tid);
}

void heap_events(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  std::vector<bool> leaked = leaked_allocations(e.heap);
  EventRecord ev;
  for (size_t i = 0; i < e.heap.size(); ++i) {
    const auto& h = e.heap[i];
    if (!heap_allocates(h)) continue;
    std::memset(ev.values, 0, sizeof ev.values);
    ev.tstamp_ns = h.tstamp_ns;
    ev.stack_id = h.stack_id;
    ev.tid = h.tid;
    ev.cpu = -1;
    HeapEstimate est = heap_estimate(h);  // a sampled Java object: the objects it stands for
    ev.values[kAlloc] = est.count;
    ev.values[kBalloc] = est.bytes;
    if (leaked[i]) {
      ev.values[kLeak] = 1;
      ev.values[kBleak] = int64_t(h.size);
    }
    fn(ev);
  }
}

void sync_events(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  EventRecord ev;
  for (const auto& s : e.sync) {
    std::memset(ev.values, 0, sizeof ev.values);
    ev.tstamp_ns = s.tstamp_ns;
    ev.stack_id = s.stack_id;
    ev.tid = s.tid;
    ev.cpu = -1;
    ev.values[kSync] = int64_t(s.wait_ns);
    ev.values[kSyncN] = 1;
    fn(ev);
  }
}

void io_events(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  EventRecord ev;
  for (const auto& s : e.io) {
    std::memset(ev.values, 0, sizeof ev.values);
    ev.tstamp_ns = s.tstamp_ns;
    ev.stack_id = s.stack_id;
    ev.tid = s.tid;
    ev.cpu = -1;
    ev.values[kIoTime] = int64_t(s.duration_ns);
    int64_t bytes = s.bytes > 0 ? s.bytes : 0;
    if (s.op == format::kIoRead) {
      ev.values[kIoReadBytes] = bytes;
      ev.values[kIoReadCount] = 1;
    } else if (s.op == format::kIoWrite) {
      ev.values[kIoWriteBytes] = bytes;
      ev.values[kIoWriteCount] = 1;
    } else {
      ev.values[kIoOtherCount] = 1;
    }
    fn(ev);
  }
}

void mpi_events(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  EventRecord ev;
  for (const auto& s : e.mpi) {
    std::memset(ev.values, 0, sizeof ev.values);
    ev.tstamp_ns = s.tstamp_ns;
    ev.stack_id = s.stack_id;
    ev.tid = s.tid;
    ev.cpu = -1;
    ev.values[kMpiTime] = int64_t(s.duration_ns);
    ev.values[kMpiSend] = int64_t(s.sends);
    ev.values[kMpiBytesSent] = int64_t(s.bytes_sent);
    ev.values[kMpiReceive] = int64_t(s.receives);
    ev.values[kMpiBytesRecv] = int64_t(s.bytes_received);
    // Other MPI Calls: calls of the "other" category (Barrier, Wait*, Win_*, ...: table 2-5).
    if (format::mpi_function_category(s.function) == format::MpiCategory::kOther) ev.values[kMpiOther] = 1;
    fn(ev);
  }
}

// collect -h: each overflow at its stack, under the counter's metric; records without a stack
// (lost overflows, counts since the last overflow at a thread's end, a counter that could not
// be read) at their pseudo-function's stack (model/hwc_pseudo.h).
void hwc_events(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  std::vector<uint32_t> metric_of, time_of;
  for (const auto& c : e.log.hwc_counters) {
    auto it = c.find("name");
    // A named counter's metric, or a raw counter's slot (model/raw_counter_metrics.h).
    metric_of.push_back(it == c.end() ? kMetricCount : hwc_counter_metric(it->second));
    // A cycle-type counter also as time, at the experiment's CPU clock rate (issue 19).
    time_of.push_back(e.log.cpu_khz ? cycles_time_metric(metric_of.back()) : kMetricCount);
  }
  EventRecord ev;
  for (const auto& h : e.hwc) {
    uint64_t stack = h.stack_id == format::kNoStackId ? hwc_pseudo_stack(h.flags) : h.stack_id;
    if (h.counter >= metric_of.size() || metric_of[h.counter] == kMetricCount || stack == format::kNoStackId)
      continue;
    std::memset(ev.values, 0, sizeof ev.values);
    ev.tstamp_ns = h.tstamp_ns;
    ev.stack_id = stack;
    ev.tid = h.tid;
    ev.cpu = h.cpu;
    ev.values[metric_of[h.counter]] = int64_t(h.value);
    if (time_of[h.counter] < kMetricCount)
      ev.values[time_of[h.counter]] = cycles_to_ns(int64_t(h.value), e.log.cpu_khz);
    fn(ev);
  }
}

}  // namespace

void for_each_event(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  clock_events(e, fn);
  for_each_traced_event(e, fn);
}

void for_each_traced_event(const reader::Experiment& e, const std::function<void(const EventRecord&)>& fn) {
  heap_events(e, fn);
  sync_events(e, fn);
  io_events(e, fn);
  mpi_events(e, fn);
  hwc_events(e, fn);
}

}  // namespace erkit::model
