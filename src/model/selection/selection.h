// Selection lists for sample_select / thread_select / lwp_select / cpu_select:
//   [experiment-list:]selection-list[+[experiment-list:]selection-list...]
// and the cross-command experiment-list rule of er_print.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace erkit::selection {

struct Range {
  int64_t lo, hi;  // inclusive
  bool operator==(const Range&) const = default;
};

// Sorted, merged, non-overlapping ranges, or "all".
class RangeSet {
 public:
  static RangeSet all_values();
  void add(int64_t lo, int64_t hi);
  void add(const RangeSet& o);
  bool contains(int64_t v) const;
  bool is_all() const { return all_; }
  bool empty() const { return !all_ && ranges_.empty(); }
  const std::vector<Range>& ranges() const { return ranges_; }
  // "1-4,6" or "all"; with max_value, "all" prints as "1-max" (sample_list style).
  std::string to_string(std::optional<int64_t> max_value = std::nullopt) const;
  bool operator==(const RangeSet&) const = default;

 private:
  bool all_ = false;
  std::vector<Range> ranges_;
};

struct SelectionError {
  std::string message;
  size_t offset = 0;
};

struct SelectionTerm {
  std::optional<RangeSet> experiments;  // nullopt: no "exp-list:" prefix (means all)
  RangeSet objects;
};

struct SelectionSpec {
  std::vector<SelectionTerm> terms;
  std::string to_string() const;  // canonical text, e.g. "1:1-4+2:5-6"
};

std::variant<SelectionSpec, SelectionError> parse_selection(std::string_view text);

enum class Target : uint8_t { Samples, Threads, Lwps, Cpus };
constexpr int kTargets = 4;

// Current selections of all targets over experiments 1..n.
class SelectionState {
 public:
  explicit SelectionState(uint32_t n_experiments = 0);
  void reset(uint32_t n_experiments);  // everything selected

  // Applies a *_select command. Experiment numbers must be 1..n. On error nothing changes.
  std::optional<SelectionError> apply(Target t, const SelectionSpec& spec);
  std::optional<SelectionError> apply(Target t, std::string_view text);

  bool experiment_selected(uint32_t expid) const;
  bool contains(Target t, uint32_t expid, int64_t value) const;
  // Per-experiment selection (nullptr when the experiment is not selected).
  const RangeSet* selection(Target t, uint32_t expid) const;
  // Canonical text of a target's selection: "1:1-4+2:5-6", or "all" when every experiment
  // has everything selected.
  std::string to_string(Target t) const;
  uint32_t experiment_count() const { return n_; }

 private:
  uint32_t n_ = 0;
  RangeSet exp_list_;  // experiments named by the last command (all initially)
  std::map<uint32_t, RangeSet> sel_[kTargets];
};

}  // namespace erkit::selection
