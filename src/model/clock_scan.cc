#include "model/clock_scan.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <unordered_map>

namespace erkit::model {

void clock_sample_values(const reader::ClockSample& s, int64_t out[kClockSumCount]) {
  std::memset(out, 0, sizeof(int64_t) * kClockSumCount);
  int64_t total = 0;
  for (uint32_t m = 0; m < format::kMsCount; ++m) total += int64_t(s.ns[m]);
  if (s.flags & format::kClockFlagKernel) {  // er_kernel: KCPU Cycles, or Kthr Time of a -T thread
    out[(s.flags & format::kClockFlagKernelThread) ? 10 : 9] = total;
    return;
  }
  for (uint32_t m = 0; m < format::kMsCount; ++m) out[m] = int64_t(s.ns[m]);  // kUser.. in order
  out[7] = total;
  if (s.flags & format::kClockFlagMainThread) out[8] = total;
}

namespace {

static_assert(kUser == 0 && kOtherWait == format::kMsCount - 1, "microstates are the first metrics");

// Stack id -> slot, open addressing with linear probing: one probe touches one cache line,
// where std::unordered_map walks a node list per sample (most of the pass's time at 10 M).
class SlotIndex {
 public:
  SlotIndex() { table_.assign(1024, {0, kEmpty}); }
  void prefetch(uint64_t key) const { __builtin_prefetch(&table_[hash(key) & (table_.size() - 1)]); }
  // The slot of key; if it has none, `fresh` becomes its slot and *inserted is set.
  uint32_t find_or_add(uint64_t key, uint32_t fresh, bool* inserted) {
    size_t mask = table_.size() - 1;
    for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      Entry& en = table_[i];
      if (en.slot == kEmpty) {
        en = {key, fresh};
        *inserted = true;
        if (++used_ * 2 > table_.size()) grow();
        return fresh;
      }
      if (en.key == key) {
        *inserted = false;
        return en.slot;
      }
    }
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Entry {
    uint64_t key;
    uint32_t slot;
  };
  static size_t hash(uint64_t k) { return size_t((k * 0x9E3779B97F4A7C15ull) >> 17); }
  void grow() {
    std::vector<Entry> old(table_.size() * 2, {0, kEmpty});
    old.swap(table_);
    size_t mask = table_.size() - 1;
    for (const Entry& en : old) {
      if (en.slot == kEmpty) continue;
      size_t i = hash(en.key) & mask;
      while (table_[i].slot != kEmpty) i = (i + 1) & mask;
      table_[i] = en;
    }
  }
  std::vector<Entry> table_;
  size_t used_ = 0;
};

// One worker's part: samples [begin, end).
struct Part {
  std::vector<ClockStackSum> stacks;
  SlotIndex stack_slot;
  std::vector<ClockThreadSum> threads;
  std::unordered_map<uint32_t, uint32_t> thread_slot;
  std::vector<int32_t> cpus;
  bool omp_states = false;
  bool mode_split = false;
  // With a filter: per slot, the filter's context and the index (in e.clock) of the first
  // kept sample, kNotKept if none.
  std::vector<const void*> context;
  std::vector<uint64_t> first_kept;
};

constexpr uint64_t kNotKept = UINT64_MAX;

// Samples [begin, end), the first at index `first` of e.clock; filter null: every sample.
void scan_part(const reader::ClockSample* begin, const reader::ClockSample* end, Part& p,
               const ClockSampleFilter* filter = nullptr, uint64_t first = 0) {
  // Samples of 100,000 stacks in random order: each sample's index entry and sums are a cache
  // miss. The loop is a pipeline: the index entry of sample i + 2A is fetched ahead, sample
  // i + A is looked up (in sample order, so slots are still numbered by first sample) and its
  // sums fetched ahead, and sample i is added up.
  constexpr size_t kAhead = 8;
  const size_t n = size_t(end - begin);
  uint32_t ring[kAhead];
  auto lookup = [&](const reader::ClockSample& s) {
    bool fresh = false;
    uint32_t slot = p.stack_slot.find_or_add(s.stack_id, uint32_t(p.stacks.size()), &fresh);
    if (fresh) {
      ClockStackSum sum{};
      sum.stack_id = s.stack_id;
      sum.first_ns = s.tstamp_ns;
      p.stacks.push_back(sum);
      if (filter) {
        p.context.push_back(filter->stack_context(s.stack_id));
        p.first_kept.push_back(kNotKept);
      }
    }
    return slot;
  };
  for (size_t i = 0; i < std::min(n, kAhead); ++i) ring[i] = lookup(begin[i]);
  int64_t v[kClockSumCount];
  uint32_t last_tid = 0, last_thread = UINT32_MAX;
  int32_t last_cpu = -1;
  for (size_t i = 0; i < n; ++i) {
    const reader::ClockSample* s = begin + i;
    if (i + 2 * kAhead < n) p.stack_slot.prefetch(begin[i + 2 * kAhead].stack_id);
    uint32_t slot = ring[i % kAhead];
    if (i + kAhead < n) {
      uint32_t ahead = lookup(begin[i + kAhead]);
      ring[i % kAhead] = ahead;
      __builtin_prefetch(&p.stacks[ahead], 1);
    }
    p.omp_states |= s->omp_state != 0;
    p.mode_split |= (s->flags & format::kClockFlagInSyscall) != 0;
    if (filter) {
      if (!filter->keep(*s, p.context[slot])) continue;
      if (p.first_kept[slot] == kNotKept) {
        p.first_kept[slot] = first + i;
        p.stacks[slot].first_ns = s->tstamp_ns;
      }
    }
    clock_sample_values(*s, v);
    int64_t* sum = p.stacks[slot].values;
    for (uint32_t m = 0; m < kClockSumCount; ++m) sum[m] += v[m];
    if (last_thread == UINT32_MAX || s->tid != last_tid) {
      auto [it, fresh] = p.thread_slot.try_emplace(s->tid, uint32_t(p.threads.size()));
      if (fresh) p.threads.push_back({s->tid, s->tstamp_ns, s->tstamp_ns, 0});
      last_thread = it->second;
      last_tid = s->tid;
    }
    ClockThreadSum& t = p.threads[last_thread];
    t.first_ns = std::min(t.first_ns, s->tstamp_ns);
    t.last_ns = std::max(t.last_ns, s->tstamp_ns);
    t.events++;
    if (s->cpu >= 0 && s->cpu != last_cpu) {
      if (std::find(p.cpus.begin(), p.cpus.end(), s->cpu) == p.cpus.end()) p.cpus.push_back(s->cpu);
      last_cpu = s->cpu;
    }
  }
}

}  // namespace

namespace {

// Adds a part's threads and CPUs to `out`: a thread seen before widens its span and adds its
// events; a new thread or CPU goes after those of the earlier parts.
void merge_threads_and_cpus(const Part& p, std::unordered_map<uint32_t, uint32_t>& thread_slot, ClockScan& out) {
  for (const ClockThreadSum& t : p.threads) {
    auto [it, fresh] = thread_slot.try_emplace(t.tid, uint32_t(out.threads.size()));
    if (fresh) {
      out.threads.push_back(t);
      continue;
    }
    ClockThreadSum& o = out.threads[it->second];
    o.first_ns = std::min(o.first_ns, t.first_ns);
    o.last_ns = std::max(o.last_ns, t.last_ns);
    o.events += t.events;
  }
  for (int32_t c : p.cpus)
    if (std::find(out.cpus.begin(), out.cpus.end(), c) == out.cpus.end()) out.cpus.push_back(c);
}

// Merges filtered parts: a stack's sums over every part, ordered by its first kept sample
// (a part numbers its slots by first sample, kept or not); threads and CPUs, which a part
// only records for kept samples, in part order as without a filter.
ClockScan merge_kept(std::vector<Part>& parts) {
  ClockScan out;
  SlotIndex slot;
  std::vector<uint64_t> first_kept;
  std::unordered_map<uint32_t, uint32_t> thread_slot;
  for (Part& p : parts) {
    out.omp_states |= p.omp_states;
    out.mode_split |= p.mode_split;
    for (size_t i = 0; i < p.stacks.size(); ++i) {
      if (p.first_kept[i] == kNotKept) continue;
      const ClockStackSum& s = p.stacks[i];
      bool fresh = false;
      uint32_t at = slot.find_or_add(s.stack_id, uint32_t(out.stacks.size()), &fresh);
      if (fresh) {
        out.stacks.push_back(s);
        first_kept.push_back(p.first_kept[i]);
        continue;
      }
      ClockStackSum& sum = out.stacks[at];
      for (uint32_t m = 0; m < kClockSumCount; ++m) sum.values[m] += s.values[m];
    }
    merge_threads_and_cpus(p, thread_slot, out);
  }
  // A stack's first kept sample is in the first part that kept one of its samples, where it
  // was added to out.stacks; sort by it (indices are distinct, so the order is total).
  std::vector<uint32_t> order(out.stacks.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return first_kept[a] < first_kept[b]; });
  std::vector<ClockStackSum> sorted;
  sorted.reserve(order.size());
  for (uint32_t i : order) sorted.push_back(out.stacks[i]);
  out.stacks = std::move(sorted);
  return out;
}

ClockScan scan(const reader::Experiment& e, const ClockSampleFilter* filter, unsigned workers) {
  const size_t n = e.clock.size();
  if (workers == 0) workers = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  constexpr size_t kMinPerWorker = 1 << 18;  // below, a thread costs more than it saves
  workers = unsigned(std::clamp<size_t>(n / kMinPerWorker, 1, workers));
  std::vector<Part> parts(workers);
  const reader::ClockSample* base = e.clock.data();
  auto bounds = [&](unsigned w) { return base + n * w / workers; };
  auto run = [&](unsigned w) { scan_part(bounds(w), bounds(w + 1), parts[w], filter, uint64_t(bounds(w) - base)); };
  if (workers == 1) {
    run(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < workers; ++w) pool.emplace_back(run, w);
    run(0);
    for (auto& t : pool) t.join();
  }
  // Merge the parts in sample order: a stack, thread or CPU first seen in an earlier part
  // comes first, so the order is that of a single pass.
  ClockScan out;
  if (filter) return merge_kept(parts);
  if (workers == 1) {
    out.stacks = std::move(parts[0].stacks);
    out.threads = std::move(parts[0].threads);
    out.cpus = std::move(parts[0].cpus);
    out.omp_states = parts[0].omp_states;
    out.mode_split = parts[0].mode_split;
    return out;
  }
  SlotIndex slot;
  std::unordered_map<uint32_t, uint32_t> thread_slot;
  for (Part& p : parts) {
    out.omp_states |= p.omp_states;
    out.mode_split |= p.mode_split;
    for (const ClockStackSum& s : p.stacks) {
      bool fresh = false;
      uint32_t at = slot.find_or_add(s.stack_id, uint32_t(out.stacks.size()), &fresh);
      if (fresh) {
        out.stacks.push_back(s);
        continue;
      }
      ClockStackSum& sum = out.stacks[at];
      for (uint32_t m = 0; m < kClockSumCount; ++m) sum.values[m] += s.values[m];
    }
    merge_threads_and_cpus(p, thread_slot, out);
  }
  return out;
}

}  // namespace

ClockScan scan_clock_samples(const reader::Experiment& e, unsigned workers) { return scan(e, nullptr, workers); }

ClockScan scan_clock_samples(const reader::Experiment& e, const ClockSampleFilter& filter, unsigned workers) {
  return scan(e, &filter, workers);
}

}  // namespace erkit::model
