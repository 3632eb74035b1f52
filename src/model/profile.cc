#include "model/profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

#include "common/progress.h"
#include "format/log_keys.h"
#include "model/clock_scan.h"
#include "model/event_source.h"
#include "model/filter/filter.h"
#include "model/raw_counter_metrics.h"
#include "model/viewmode/openmp_chain.h"

namespace erkit::model {
namespace log_key = format::log_key;
namespace log_setting = format::log_setting;

Profile::Profile() : resolver_(std::make_unique<StackResolver>(funcs_, sym_cache_)) {
  // ERKIT_CLOCK_SCAN=off: the sample-by-sample pass, for comparing the two (bench/scale).
  if (const char* v = std::getenv("ERKIT_CLOCK_SCAN"); v && std::string_view(v) == "off") clock_scan_ = false;
}
Profile::~Profile() = default;

namespace {
uint64_t event_count(const reader::Experiment& e) { return e.clock.size() + e.heap.size() + e.sync.size() + e.io.size(); }
}  // namespace

void Profile::set_view_mode(ViewMode m) {
  if (m == view_mode_) return;
  view_mode_ = m;
  view_stacks_.clear();
  computed_ = edges_computed_ = false;
  // Java stacks are split by the resolver itself (model/viewmode/java_*): resolve them again.
  if (m == resolver_->view_mode()) return;
  resolver_->set_view_mode(m);
  for (uint32_t x = 0; x < exps_.size(); ++x) {
    for (const ClockStackSum& s : clock_scans_[x].stacks) resolver_->resolve(x, exps_[x], s.stack_id, s.first_ns);
    for_each_traced_event(exps_[x], [&](const EventRecord& ev) { resolver_->resolve(x, exps_[x], ev.stack_id, ev.tstamp_ns); });
  }
}

uint32_t Profile::add_experiment(reader::Experiment e) {
  exps_.push_back(std::move(e));
  computed_ = edges_computed_ = false;
  // Symbolise every stack now, so the function table is complete before filters bind names.
  uint32_t x = uint32_t(exps_.size() - 1);
  const reader::Experiment& ex = exps_.back();
  std::unordered_map<uint32_t, ThreadEntry> seen;
  std::vector<int32_t> cpus;
  common::Progress progress("symbolising", ex.path, event_count(ex));
  // Clock samples: summed by stack and thread in one parallel pass (model/clock_scan.h), kept
  // for compute(); each distinct stack is resolved at its first sample, as a pass over the
  // samples would.
  clock_scans_.push_back(scan_clock_samples(ex));
  for (const ClockStackSum& s : clock_scans_.back().stacks) {
    progress.tick();
    resolver_->resolve(x, ex, s.stack_id, s.first_ns);
  }
  for (const ClockThreadSum& c : clock_scans_.back().threads) {
    ThreadEntry& t = seen[c.tid];
    t.tid = c.tid;
    t.first_ns = c.first_ns;
    t.last_ns = c.last_ns;
    t.events = c.events;
  }
  cpus = clock_scans_.back().cpus;
  progress.set(ex.clock.size());
  for_each_traced_event(ex, [&](const EventRecord& ev) {
    progress.tick();
    resolver_->resolve(x, ex, ev.stack_id, ev.tstamp_ns);
    auto [it, inserted] = seen.try_emplace(ev.tid);
    ThreadEntry& t = it->second;
    if (inserted) t.tid = ev.tid, t.first_ns = t.last_ns = ev.tstamp_ns;
    t.first_ns = std::min(t.first_ns, ev.tstamp_ns);
    t.last_ns = std::max(t.last_ns, ev.tstamp_ns);
    t.events++;
    if (ev.cpu >= 0 && std::find(cpus.begin(), cpus.end(), ev.cpu) == cpus.end()) cpus.push_back(ev.cpu);
  });
  // Threads the log saw start count even without events; their start time orders them.
  for (const auto& [tid, info] : ex.log.threads) {
    auto [it, inserted] = seen.try_emplace(tid);
    if (inserted) it->second.tid = tid, it->second.first_ns = info.start_ns, it->second.last_ns = info.end_ns;
    else it->second.first_ns = std::min(it->second.first_ns, info.start_ns);
  }
  std::vector<ThreadEntry> threads;
  for (auto& [tid, t] : seen) threads.push_back(t);
  const uint32_t main_tid = ex.log.pid > 0 ? uint32_t(ex.log.pid) : 0;
  std::sort(threads.begin(), threads.end(), [&](const ThreadEntry& a, const ThreadEntry& b) {
    if ((a.tid == main_tid) != (b.tid == main_tid)) return a.tid == main_tid;  // the initial thread is 1
    if (a.first_ns != b.first_ns) return a.first_ns < b.first_ns;
    return a.tid < b.tid;
  });
  std::unordered_map<uint32_t, uint32_t> numbers;
  for (size_t i = 0; i < threads.size(); ++i) {
    threads[i].number = uint32_t(i + 1);
    numbers[threads[i].tid] = threads[i].number;
  }
  // Java thread names (JVMTI ThreadStart; docs/java.md): what the agent recorded for the tid.
  if (const JavaInfo& ji = resolver_->java_info(x, ex); ji.present)
    for (auto& t : threads)
      if (auto it = ji.threads.find(t.tid); it != ji.threads.end()) t.name = it->second;
  std::sort(cpus.begin(), cpus.end());
  threads_.push_back(std::move(threads));
  thread_numbers_.push_back(std::move(numbers));
  cpus_.push_back(std::move(cpus));
  return x + 1;
}

uint32_t Profile::thread_number(uint32_t exp, uint32_t tid) const {
  const auto& m = thread_numbers_[exp];
  auto it = m.find(tid);
  return it == m.end() ? 0 : it->second;
}

void Profile::set_object_expanded(ObjId o, bool expanded) {
  if (o == kNoObject) return;
  if (collapsed_.size() <= o) collapsed_.resize(o + 1, false);
  if (collapsed_[o] == !expanded) return;
  collapsed_[o] = !expanded;
  if (!expanded) object_function(o);
  computed_ = edges_computed_ = false;
}

void Profile::set_inline_frames(bool shown) {
  if (inline_frames_ == shown) return;
  inline_frames_ = shown;
  computed_ = edges_computed_ = false;
}

FuncId Profile::object_function(ObjId o) const {
  auto it = object_funcs_.find(o);
  if (it != object_funcs_.end()) return it->second;
  FunctionEntry e;
  e.name = e.short_name = "<" + funcs_.object(o).name + ">";
  e.object = o;
  e.pseudo = true;
  FuncId f = funcs_.intern(std::move(e));
  object_funcs_[o] = f;
  return f;
}

std::vector<ObjId> Profile::objects_in_load_order() const {
  std::vector<bool> has(funcs_.object_count(), false);
  for (FuncId f = 0; f < funcs_.size(); ++f) {
    const auto& e = funcs_.at(f);
    if (!e.pseudo || object_funcs_.count(e.object)) has[e.object] = true;
  }
  // First load time of each object's path over all experiments; unmapped objects go last.
  std::unordered_map<std::string, std::pair<uint64_t, size_t>> first;  // path -> (load ns, map index)
  for (const auto& e : exps_)
    for (size_t i = 0; i < e.objects.size(); ++i) {
      auto [it, inserted] = first.try_emplace(e.objects[i].path, e.objects[i].load_ns, i);
      if (!inserted) it->second = std::min(it->second, std::make_pair(e.objects[i].load_ns, i));
    }
  std::vector<ObjId> out;
  for (ObjId o = 1; o < has.size(); ++o)
    if (has[o]) out.push_back(o);
  auto key = [&](ObjId o) {
    auto it = first.find(funcs_.object(o).path);
    return it == first.end() ? std::make_pair(UINT64_MAX, size_t(o)) : it->second;
  };
  std::stable_sort(out.begin(), out.end(), [&](ObjId a, ObjId b) { return key(a) < key(b); });
  return out;
}

void Profile::set_event_filter(EventPredicate pred, bool needs_stack_funcs) {
  pred_ = std::move(pred);
  pred_needs_stack_ = needs_stack_funcs;
  computed_ = edges_computed_ = false;
}

void Profile::set_clock_scan(bool on) {
  clock_scan_ = on;
  computed_ = edges_computed_ = false;
}

std::vector<uint32_t> Profile::available_metrics() const {
  bool omp = false, clock = false, heap = false, sync = false, io = false, mpi = false, kernel = false, kthr = false;
  std::vector<bool> hwc(kMetricCount, false);  // the counters recorded (collect -h)
  for (const auto& e : exps_) {
    for (const auto& c : e.log.hwc_counters)
      if (auto it = c.find("name"); it != c.end()) {
        uint32_t m = hwc_counter_metric(it->second);  // raw counters: a slot of their own
        if (m < kMetricCount) hwc[m] = true;
        // Its time form where the experiment recorded the CPU clock rate (issue 19).
        if (uint32_t t = cycles_time_metric(m); t < kMetricCount && e.log.cpu_khz) hwc[t] = true;
      }
    if (e.log.kernel) {  // er_kernel: its own metrics instead of the user microstates
      kernel = true;
      kthr |= e.log.kernel_threads;
      continue;
    }
    clock |= !e.clock.empty() || e.log.clock_interval_ns != 0;
    heap |= !e.heap.empty() || (e.log.settings.count(log_setting::kHeap) &&
                                   e.log.settings.at(log_setting::kHeap).count(log_key::kOn) &&
                                   e.log.settings.at(log_setting::kHeap).at(log_key::kOn) == "1");
    sync |= !e.sync.empty();
    io |= !e.io.empty();
    mpi |= !e.mpi.empty();
    omp |= has_omp_samples(e);
  }
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < kMetricCount; ++i) {
    switch (metric_def(i).source) {
      case MetricSource::Clock: if (clock) out.push_back(i); break;
      case MetricSource::Heap: if (heap) out.push_back(i); break;
      case MetricSource::Sync: if (sync) out.push_back(i); break;
      case MetricSource::Io: if (io) out.push_back(i); break;
      case MetricSource::Mpi: if (mpi) out.push_back(i); break;
      case MetricSource::Hwc: if (hwc[i]) out.push_back(i); break;
      case MetricSource::Kernel: if (kernel) out.push_back(i); break;
      case MetricSource::KernelThread: if (kthr) out.push_back(i); break;
      case MetricSource::Omp: if (omp) out.push_back(i); break;
    }
  }
  return out;
}

uint32_t Profile::sample_at(uint32_t exp, uint64_t t) const {
  const auto& s = exps_[exp].samples;
  // Sample n covers (time of sample n-1, time of sample n].
  auto it = std::lower_bound(s.begin(), s.end(), t,
                             [](const reader::OverviewSample& a, uint64_t v) { return a.rec.tstamp_ns < v; });
  // Numbered by position, as the views number sample intervals. Without recorded samples
  // the whole run is sample 1.
  // Events after the closing "end" sample (the collector's last clock ticks) belong to it.
  if (it == s.end()) return uint32_t(s.size()) + (s.empty() || s.back().rec.reason != format::kSampleEnd ? 1 : 0);
  return uint32_t(it - s.begin()) + 1;
}

bool Profile::keeps(uint32_t x, const EventRecord& ev, const ResolvedStack& rs) const {
  return keeps(x, ev.tid, ev.cpu, ev.tstamp_ns, &rs);
}

// Reads only: the clock scan's workers call it at the same time (model/clock_scan.h).
bool Profile::keeps(uint32_t x, uint32_t tid, int32_t cpu, uint64_t tstamp_ns, const ResolvedStack* rs) const {
  if (!pred_) return true;
  const reader::Experiment& e = exps_[x];
  filter::EventView v;
  v.expid = x + 1;
  v.pid = uint32_t(e.log.pid);
  v.rank = e.log.mpi_rank;
  v.thrid = thread_number(x, tid);
  v.lwpid = tid;
  if (e.log.kernel) {  // seed Table 5-1: LWP is the process id, Thread the kernel thread id
    auto tp = e.log.task_pid.find(tid);
    v.pid = tp == e.log.task_pid.end() ? 0 : tp->second;
    v.lwpid = v.pid;
    v.thrid = tid;
  }
  v.cpuid = cpu;
  v.tstamp_ns = tstamp_ns;
  v.sample = sample_at(x, tstamp_ns);
  if (pred_needs_stack_ && rs) v.stack_funcs = rs->funcs;
  return pred_(v);
}

bool Profile::selected(uint32_t exp, uint32_t tid, int32_t cpu, uint64_t tstamp_ns, uint64_t stack_id) const {
  if (!pred_) return true;
  EventRecord ev{};
  ev.tstamp_ns = tstamp_ns;
  ev.stack_id = stack_id;
  ev.tid = tid;
  ev.cpu = cpu;
  return keeps(exp, ev, resolver_->resolve(exp, exps_[exp], stack_id, tstamp_ns));
}

void Profile::compute() const {
  if (computed_) return;
  ++generation_;
  aggs_.clear();
  std::unordered_map<uint64_t, uint32_t> index;  // (exp, stack id) -> aggs_ slot
  std::unordered_map<uint64_t, uint32_t> view_index;  // view-mode stack (address) -> aggs_ slot
  uint64_t total = 0;
  for (const auto& e : exps_) total += event_count(e);
  common::Progress progress("aggregating", exps_.size() == 1 ? exps_[0].path : fmt::format("{} experiments", exps_.size()),
                            total);
  for (uint32_t x = 0; x < exps_.size(); ++x) {
    const reader::Experiment& e = exps_[x];
    const bool omp_exp = clock_scans_[x].omp_states || !e.omp_regions.empty();  // has_omp_samples(e)
    if (omp_exp && !omp_view_) omp_view_ = std::make_unique<viewmode::OpenMpView>(funcs_, *resolver_);
    const viewmode::ForkParents fork_parents = omp_exp ? viewmode::fork_parents(e) : viewmode::ForkParents{};
    if (omp_exp && view_mode_ != ViewMode::kMachine) {
      // Each region's (and task's) fork chain, for samples that carry no fork stack.
      auto note = [&](uint64_t stack_id, uint64_t t) {
        std::vector<viewmode::OpenMpView::ForkLevel> chain;
        for (auto [id, task] : viewmode::fork_chain(fork_parents, stack_id))
          chain.push_back({&resolver_->resolve(x, e, id, t), task});
        omp_view_->note_fork(chain);
      };
      for (const auto& r : e.omp_regions) note(r.stack_id, r.tstamp_ns);
      for (const auto& t : e.omp_tasks) note(t.stack_id, t.create_ns);
    }
    auto has_runtime_frame = [&](const ResolvedStack& rs) {
      for (const FrameRef& f : rs.frames)
        if (omp_view_->is_runtime(f.func)) return true;
      return false;
    };
    auto add_event = [&](const EventRecord& machine_ev) {
      progress.tick();
      const ResolvedStack* rsp = &resolver_->resolve(x, e, machine_ev.stack_id, machine_ev.tstamp_ns);
      EventRecord omp_ev;
      const EventRecord* evp = &machine_ev;
      uint64_t view_key = 0;
      // An OpenMP sample: its state and, but in machine mode, its view stack. A sample of an
      // OpenMP program taken before the runtime told its state (the master inside
      // __kmpc_fork_call as the first region starts) is work, and its runtime frames are
      // the runtime's all the same.
      bool untold = omp_exp && !machine_ev.omp_state && has_runtime_frame(*rsp);
      if (machine_ev.omp_state || untold) {
        if (!omp_view_) omp_view_ = std::make_unique<viewmode::OpenMpView>(funcs_, *resolver_);
        omp_ev = machine_ev;
        evp = &omp_ev;
        uint32_t recorded = untold ? uint32_t(format::kOmpWork) : machine_ev.omp_state;
        uint32_t st = omp_view_->effective_state(*rsp, recorded, machine_ev.blocked);
        for (uint32_t m : {kOmpWork, kOmpWait, kOmpOver}) omp_ev.values[m] = 0;
        omp_ev.values[omp_metric(st)] = machine_ev.values[kTotal];
        if (view_mode_ != ViewMode::kMachine) {
          auto k = std::make_tuple(x, machine_ev.stack_id, st, machine_ev.omp_fork_stack);
          auto [vit, fresh] = view_stacks_.try_emplace(k);
          if (fresh) {
            // The sample's region (or task) and the enclosing ones: nested regions, tasks.
            std::vector<viewmode::OpenMpView::ForkLevel> chain;
            for (auto [id, task] : viewmode::fork_chain(fork_parents, machine_ev.omp_fork_stack))
              chain.push_back({&resolver_->resolve(x, e, id, machine_ev.tstamp_ns), task});
            vit->second = std::make_unique<ResolvedStack>(omp_view_->transform(*rsp, st, chain, view_mode_));
          }
          rsp = vit->second.get();
          view_key = reinterpret_cast<uintptr_t>(rsp);
        }
      }
      const EventRecord& ev = *evp;
      const ResolvedStack& rs = *rsp;
      if (!keeps(x, ev, rs)) return;
      uint64_t key = (uint64_t(x) << 56) ^ ev.stack_id;
      auto [it, inserted] = view_key ? view_index.try_emplace(view_key, uint32_t(aggs_.size()))
                                     : index.try_emplace(key, uint32_t(aggs_.size()));
      if (inserted) {
        StackAggregate a{x, &rs, {}, {}};
        aggs_.push_back(std::move(a));
      }
      StackAggregate& a = aggs_[it->second];
      for (uint32_t m = 0; m < kMetricCount; ++m) a.values[m] += ev.values[m];
    };
    // Without OpenMP states or a User/System split between samples every clock sample of a
    // stack lands in one aggregate with its own values: add the stack's sums
    // (model/clock_scan.h) in order of first sample, which is the order the sample-by-sample
    // pass creates the aggregates in. With a filter or selection the scan applies it per
    // sample on its worker threads and sums what it keeps, in order of first kept sample
    // (model/profile_clock_filter.cc).
    if (clock_scan_ && !omp_exp && !clock_scans_[x].mode_split) {
      ClockScan filtered;
      if (pred_) filtered = filtered_clock_scan(x);
      for (const ClockStackSum& s : (pred_ ? filtered : clock_scans_[x]).stacks) {
        const ResolvedStack& rs = resolver_->resolve(x, e, s.stack_id, s.first_ns);
        auto [it, inserted] = index.try_emplace((uint64_t(x) << 56) ^ s.stack_id, uint32_t(aggs_.size()));
        if (inserted) aggs_.push_back(StackAggregate{x, &rs, {}, {}});
        StackAggregate& a = aggs_[it->second];
        for (uint32_t m = 0; m < kClockSumCount; ++m) a.values[kClockSumMetrics[m]] += s.values[m];
      }
      for_each_traced_event(e, add_event);
    } else {
      for_each_event(e, add_event);
    }
  }
  // Collapsed load objects: their functions become the object's pseudo-function.
  std::vector<FuncId> shown(funcs_.size());
  for (FuncId f = 0; f < funcs_.size(); ++f) {
    ObjId o = funcs_.at(f).object;
    auto it = object_expanded(o) ? object_funcs_.end() : object_funcs_.find(o);
    shown[f] = it == object_funcs_.end() ? f : it->second;
  }
  for (StackAggregate& a : aggs_) {
    a.funcs.clear();
    for (const FrameRef& fr : a.stack->frames) {
      if (fr.inlined && !inline_frames_) continue;  // folded into the function it is inlined in
      FuncId f = shown[fr.func];
      if (a.funcs.empty() || a.funcs.back() != f || f == fr.func) a.funcs.push_back(f);
    }
  }
  // Function metrics: exclusive at the leaf, inclusive once per function per stack.
  size_t nf = funcs_.size();
  fm_.excl.assign(nf, {});
  fm_.incl.assign(nf, {});
  totals_ = {};
  std::vector<uint32_t> stamp(nf, UINT32_MAX);
  for (uint32_t ai = 0; ai < aggs_.size(); ++ai) {
    const StackAggregate& a = aggs_[ai];
    for (uint32_t m = 0; m < kMetricCount; ++m) totals_[m] += a.values[m];
    FuncId leaf = a.funcs.front();
    for (uint32_t m = 0; m < kMetricCount; ++m) fm_.excl[leaf][m] += a.values[m];
    for (FuncId f : a.funcs) {
      if (stamp[f] == ai) continue;
      stamp[f] = ai;
      for (uint32_t m = 0; m < kMetricCount; ++m) fm_.incl[f][m] += a.values[m];
    }
  }
  fm_.excl[funcs_.total()] = totals_;
  fm_.incl[funcs_.total()] = totals_;
  computed_ = true;
  edges_computed_ = false;
}

void Profile::compute_edges() const {
  compute();
  if (edges_computed_) return;
  // Only metrics with data are kept per edge (most of kMetricCount are zero for a given run).
  edge_metrics_.clear();
  for (uint32_t m = 0; m < kMetricCount; ++m) {
    bool any = false;
    for (const StackAggregate& a : aggs_) any = any || a.values[m] != 0;
    if (any) edge_metrics_.push_back(m);
  }
  // One (center, other, aggregate) entry per edge sighting, bucketed by centre; within a
  // centre, equal others are summed through a scratch index by FuncId.
  struct Sighting {
    FuncId center, other;
    uint32_t agg;
  };
  std::vector<Sighting> callers, callees;
  std::vector<uint32_t> stamp(funcs_.size(), UINT32_MAX);
  // Outer occurrences of a recursive function still make edges (issue 15: main -> fib, ping
  // <-> pong), listed with 0: their values went to the innermost occurrence. They point at a
  // row of zeros after the aggregates.
  const uint32_t zero_agg = uint32_t(aggs_.size());
  for (uint32_t ai = 0; ai < aggs_.size(); ++ai) {
    const auto& fr = aggs_[ai].funcs;
    // <Total> calls the outermost frame.
    callees.push_back({funcs_.total(), fr.back(), ai});
    // Frames are leaf first, so the first sighting of a function is its innermost occurrence:
    // the one that receives the event (recursion is counted once, seed-spec §6.2).
    for (size_t k = 0; k < fr.size(); ++k) {
      FuncId f = fr[k];
      if (stamp[f] == ai) {
        callers.push_back({f, k + 1 < fr.size() ? fr[k + 1] : funcs_.total(), zero_agg});
        callees.push_back({f, fr[k - 1], zero_agg});
        continue;
      }
      stamp[f] = ai;
      callers.push_back({f, k + 1 < fr.size() ? fr[k + 1] : funcs_.total(), ai});
      if (k > 0) callees.push_back({f, fr[k - 1], ai});
    }
  }
  // The kept metrics of every aggregate, contiguous (sightings visit aggregates at random).
  const size_t nm = edge_metrics_.size();
  std::vector<int64_t> agg_values((aggs_.size() + 1) * nm);  // + the row of zeros
  for (size_t ai = 0; ai < aggs_.size(); ++ai)
    for (size_t m = 0; m < nm; ++m) agg_values[ai * nm + m] = aggs_[ai].values[edge_metrics_[m]];
  auto reduce = [&](std::vector<Sighting>& entries, EdgeTable& out) {
    const size_t nf = funcs_.size();
    std::vector<uint32_t> start(nf + 1, 0);
    for (const Sighting& e : entries) start[e.center + 1]++;
    for (size_t f = 0; f < nf; ++f) start[f + 1] += start[f];
    std::vector<uint32_t> by_center(entries.size());
    {
      std::vector<uint32_t> fill(start.begin(), start.end() - 1);
      for (uint32_t i = 0; i < entries.size(); ++i) by_center[fill[entries[i].center]++] = i;
    }
    out.other.clear();
    out.values.clear();
    out.first.assign(nf + 1, 0);
    std::vector<uint32_t> slot(nf, UINT32_MAX);  // other -> edge index within the centre
    std::vector<FuncId> others;
    std::vector<int64_t> sums;
    for (size_t c = 0; c < nf; ++c) {
      others.clear();
      sums.clear();
      for (uint32_t j = start[c]; j < start[c + 1]; ++j) {
        const Sighting& e = entries[by_center[j]];
        if (slot[e.other] == UINT32_MAX) {
          slot[e.other] = uint32_t(others.size());
          others.push_back(e.other);
          sums.resize(sums.size() + nm, 0);
        }
        int64_t* dst = sums.data() + size_t(slot[e.other]) * nm;
        const int64_t* src = agg_values.data() + size_t(e.agg) * nm;
        for (size_t m = 0; m < nm; ++m) dst[m] += src[m];
      }
      std::vector<FuncId> sorted = others;
      std::sort(sorted.begin(), sorted.end());
      for (FuncId o : sorted) {
        out.other.push_back(o);
        const int64_t* src = sums.data() + size_t(slot[o]) * nm;
        out.values.insert(out.values.end(), src, src + nm);
      }
      for (FuncId o : others) slot[o] = UINT32_MAX;
      out.first[c + 1] = uint32_t(out.other.size());
    }
    entries = {};
  };
  reduce(callers, callers_of_);
  reduce(callees, callees_of_);
  edges_computed_ = true;
}

const std::vector<StackAggregate>& Profile::aggregates() const {
  compute();
  return aggs_;
}

const FunctionMetrics& Profile::function_metrics() const {
  compute();
  return fm_;
}

const std::array<int64_t, kMetricCount>& Profile::totals() const {
  compute();
  return totals_;
}

CallersCallees Profile::callers_callees(FuncId f) const {
  compute_edges();
  CallersCallees cc;
  cc.center = f;
  auto edges = [&](const EdgeTable& t) {
    std::vector<Edge> out;
    if (size_t(f) + 1 >= t.first.size()) return out;
    const size_t nm = edge_metrics_.size();
    for (uint32_t i = t.first[f]; i < t.first[f + 1]; ++i) {
      Edge e{t.other[i], {}};
      for (size_t j = 0; j < nm; ++j) e.values[edge_metrics_[j]] = t.values[size_t(i) * nm + j];
      out.push_back(e);
    }
    return out;
  };
  cc.callers = edges(callers_of_);
  cc.callees = edges(callees_of_);
  return cc;
}

std::vector<FuncId> Profile::functions_with_data() const {
  compute();
  std::vector<FuncId> out;
  for (FuncId f = 0; f < funcs_.size(); ++f) {
    bool any = false;
    for (uint32_t m = 0; m < kMetricCount && !any; ++m) any = fm_.incl[f][m] != 0;
    if (any) out.push_back(f);
  }
  return out;
}


}  // namespace erkit::model
