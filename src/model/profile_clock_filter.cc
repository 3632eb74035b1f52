// The event filter and selections applied inside the parallel clock scan (issue 24): the
// scan's workers call Profile::keeps for each sample with the sample's resolved stack, which
// the main thread resolved before the scan, so the workers only read.
#include <unordered_map>

#include "model/clock_scan.h"
#include "model/profile.h"

namespace erkit::model {
namespace {

template <class Keep>
class ProfileClockFilter final : public ClockSampleFilter {
 public:
  ProfileClockFilter(const std::unordered_map<uint64_t, const ResolvedStack*>& stacks, Keep keep)
      : stacks_(stacks), keep_(keep) {}
  const void* stack_context(uint64_t stack_id) const override {
    auto it = stacks_.find(stack_id);
    return it == stacks_.end() ? nullptr : it->second;
  }
  bool keep(const reader::ClockSample& s, const void* context) const override {
    return keep_(s, static_cast<const ResolvedStack*>(context));
  }

 private:
  const std::unordered_map<uint64_t, const ResolvedStack*>& stacks_;
  Keep keep_;
};

}  // namespace

ClockScan Profile::filtered_clock_scan(uint32_t x) const {
  const reader::Experiment& e = exps_[x];
  // Every stack the clock samples use, resolved here, once (the resolver is not thread-safe;
  // they were resolved when the experiment was added, so this finds them in its cache).
  std::unordered_map<uint64_t, const ResolvedStack*> stacks;
  stacks.reserve(clock_scans_[x].stacks.size());
  for (const ClockStackSum& s : clock_scans_[x].stacks)
    stacks.emplace(s.stack_id, &resolver_->resolve(x, e, s.stack_id, s.first_ns));
  auto keep = [this, x](const reader::ClockSample& s, const ResolvedStack* rs) {
    return keeps(x, s.tid, s.cpu, s.tstamp_ns, rs);
  };
  return scan_clock_samples(e, ProfileClockFilter<decltype(keep)>(stacks, keep));
}

}  // namespace erkit::model
