// The analysis model: events of every loaded experiment, filtered, aggregated by distinct
// call stack, and the function-level metrics (exclusive, inclusive, attributed) derived from
// those aggregates. Work is linear in the number of distinct stacks times their depth, not in
// events times depth; every view is a pure function of this model.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/function_table.h"
#include "model/metric_defs.h"
#include "model/stack_resolver.h"
#include "model/viewmode/openmp_view.h"
#include "reader/experiment.h"

namespace erkit::filter {
struct EventView;
}

namespace erkit::model {

struct EventRecord;
struct ClockScan;  // model/clock_scan.h

// One distinct (experiment, stack) with its summed metric values.
struct StackAggregate {
  uint32_t exp;
  const ResolvedStack* stack;
  int64_t values[kMetricCount];
  // The functions the lists show for this stack, leaf first: stack->funcs with the functions
  // of collapsed load objects replaced by the object's pseudo-function (consecutive repeats
  // merged). Equal to stack->funcs when every object is expanded.
  std::vector<FuncId> funcs;
};

// A thread of one experiment. Threads are numbered 1..N per experiment in order of their
// first appearance (thread start, else first event); that number is THRID in filters and
// what thread_select takes, while the kernel thread id is the LWP (LWPID, lwp_select).
struct ThreadEntry {
  uint32_t number = 0;
  uint32_t tid = 0;
  uint64_t first_ns = 0, last_ns = 0;
  uint64_t events = 0;  // recorded events of every data kind
  std::string name;     // the Java thread's name (the agent's "thread" records); empty if none
};

struct FunctionMetrics {
  std::vector<std::array<int64_t, kMetricCount>> excl, incl;  // indexed by FuncId
};

struct Edge {
  FuncId other;
  int64_t values[kMetricCount];
};

struct CallersCallees {
  FuncId center;
  std::vector<Edge> callers;  // attributed values of each caller edge
  std::vector<Edge> callees;
};

using EventPredicate = std::function<bool(const filter::EventView&)>;

class Profile {
 public:
  Profile();
  ~Profile();
  // Takes ownership of an opened experiment; returns its 1-based EXPID.
  uint32_t add_experiment(reader::Experiment e);
  const std::vector<reader::Experiment>& experiments() const { return exps_; }
  // The analyzer's Experiments tab edits an experiment's notes (issue 17): the model's copy.
  void set_notes(uint32_t x, std::vector<std::string> notes) { exps_.at(x).notes = std::move(notes); }

  // View mode (er_print viewmode, seed-spec §6.9-6.10): how Java stacks (model/viewmode/java_*,
  // resolved again) and OpenMP samples' stacks (model/viewmode/openmp_view.h) are shown.
  // Invalidates results.
  void set_view_mode(ViewMode m);

  // Events for which pred returns false are left out (null: keep all). Invalidates results.
  // pred is called for clock samples from the clock scan's worker threads at the same time
  // (model/clock_scan.h): it may only read shared state.
  void set_event_filter(EventPredicate pred, bool needs_stack_funcs);
  // Off: clock samples are aggregated one by one (the reference pass of the tests) instead of
  // from model/clock_scan's per-stack sums. On by default. Invalidates results.
  void set_clock_scan(bool on);

  // Whether an event of experiment exp (0-based) passes the event filter and the selections
  // (experiments, samples, threads, LWPs, CPUs). The one test every report applies, whatever
  // the event kind: the aggregates behind the function list and the per-record summaries of
  // model/trace_summaries.h alike. cpu -1: the event kind records none.
  bool selected(uint32_t exp, uint32_t tid, int32_t cpu, uint64_t tstamp_ns, uint64_t stack_id) const;

  // Metrics that have data in the loaded experiments.
  std::vector<uint32_t> available_metrics() const;

  const FunctionTable& functions() const { return funcs_; }
  const StackResolver& resolver() const { return *resolver_; }
  // Results, computed on first use after a change of filter, view mode or expansion: the
  // model is a cache of its inputs, so these are const (views take `const Profile&`) while
  // they fill it (stacks resolved, functions interned, aggregates built). Not thread-safe.
  const std::vector<StackAggregate>& aggregates() const;
  // How many times the aggregates were built: a result derived from them (a report's cache)
  // stays valid while this is unchanged after a call of aggregates().
  uint64_t generation() const { return generation_; }
  const FunctionMetrics& function_metrics() const;
  const std::array<int64_t, kMetricCount>& totals() const;
  CallersCallees callers_callees(FuncId f) const;
  // Functions with any non-zero inclusive value.
  std::vector<FuncId> functions_with_data() const;
  // The sample number (1-based) of experiment exp containing time t: sample n covers
  // (point n-1, point n]; events after the last point are in one more; no points: 1.
  uint32_t sample_at(uint32_t exp, uint64_t t) const;

  // Threads of experiment exp (0-based index), by number; CPUs that recorded events.
  const std::vector<ThreadEntry>& threads(uint32_t exp) const { return threads_[exp]; }
  uint32_t thread_number(uint32_t exp, uint32_t tid) const;
  const std::vector<int32_t>& cpus(uint32_t exp) const { return cpus_[exp]; }

  // Load-object expansion (object_select/object_show/object_hide): a collapsed object's
  // functions are shown as one pseudo-function "<name>" owned by the object.
  void set_object_expanded(ObjId o, bool expanded);
  // Inlined functions as their own frames (true) or folded into the function they were
  // inlined into (false, the default, as perf and gprofng show them). Views that list
  // functions follow it; line and PC views keep the inlined code's own lines.
  void set_inline_frames(bool shown);
  bool inline_frames() const { return inline_frames_; }
  bool object_expanded(ObjId o) const { return o >= collapsed_.size() || !collapsed_[o]; }
  // The pseudo-function standing for a collapsed object.
  FuncId object_function(ObjId o) const;
  // Objects that have functions in the loaded experiments, in load order.
  std::vector<ObjId> objects_in_load_order() const;
  ViewMode view_mode() const { return view_mode_; }

 private:
  void compute() const;
  void compute_edges() const;
  // Experiment x's clock samples that pass the filter, summed by stack on the scan's worker
  // threads (model/profile_clock_filter.cc).
  ClockScan filtered_clock_scan(uint32_t x) const;
  bool keeps(uint32_t x, const EventRecord& ev, const ResolvedStack& rs) const;
  bool keeps(uint32_t x, uint32_t tid, int32_t cpu, uint64_t tstamp_ns, const ResolvedStack* rs) const;

  std::vector<reader::Experiment> exps_;
  // Mutable: results are computed lazily from const accessors (see aggregates()); resolving a
  // stack interns its functions, so the function table grows with the cache.
  mutable FunctionTable funcs_;
  mutable symbols::SymbolCache sym_cache_;
  std::unique_ptr<StackResolver> resolver_;
  EventPredicate pred_;
  bool pred_needs_stack_ = false;
  bool clock_scan_ = true;
  // The cache: everything below marked mutable is derived from the inputs above.
  mutable bool computed_ = false, edges_computed_ = false;
  mutable uint64_t generation_ = 0;
  mutable std::vector<StackAggregate> aggs_;
  mutable FunctionMetrics fm_;
  mutable std::array<int64_t, kMetricCount> totals_{};
  // Caller or callee edges by centre function, in FuncId order of the other end: those of f
  // are other[first[f] .. first[f+1]), with one value per edge_metrics_ entry each.
  struct EdgeTable {
    std::vector<uint32_t> first;
    std::vector<FuncId> other;
    std::vector<int64_t> values;
  };
  mutable std::vector<uint32_t> edge_metrics_;
  mutable EdgeTable callers_of_, callees_of_;
  std::vector<std::vector<ThreadEntry>> threads_;
  std::vector<std::unordered_map<uint32_t, uint32_t>> thread_numbers_;  // tid -> number
  std::vector<std::vector<int32_t>> cpus_;
  std::vector<bool> collapsed_;                     // by ObjId
  bool inline_frames_ = false;
  ViewMode view_mode_ = ViewMode::kUser;
  mutable std::unique_ptr<viewmode::OpenMpView> omp_view_;
  // Stacks as the view mode shows them, by (experiment, stack, state, fork stack).
  mutable std::map<std::tuple<uint32_t, uint64_t, uint32_t, uint64_t>, std::unique_ptr<ResolvedStack>> view_stacks_;
  mutable std::unordered_map<ObjId, FuncId> object_funcs_;  // collapsed object -> pseudo-function
  std::vector<ClockScan> clock_scans_;  // per experiment: clock samples summed by stack (issue 24)
};

}  // namespace erkit::model
