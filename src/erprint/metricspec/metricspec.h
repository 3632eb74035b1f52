// er_print metric lists (metrics/cmetrics/data_metrics, dmetrics) and sort specs:
//   metric_spec ::= keyword { ':' keyword }
//   dynamic     ::= flavors visibilities name      e.g. ie.%user
//   static      ::= [visibilities] name            name | size | address
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace erkit::metricspec {

// How a metric's value is shown, which decides what '.' and '+' mean for it.
enum class ValueKind : uint8_t {
  Time,    // seconds: '+' is treated as '.'
  Count,   // events, bytes: '.' is treated as '+'
  Cycles,  // cycle-type HWC: '.' = converted to time, '+' = raw count; both valid
};

enum FlavorBit : uint8_t { kExclusive = 1, kInclusive = 2, kAttributed = 4, kDataSpace = 8 };

// One metric recorded in the loaded experiments.
struct AvailableMetric {
  std::string name;          // keyword name: user, sync, cycles, a raw counter name...
  std::string display_name;  // "User CPU Time"
  ValueKind kind = ValueKind::Time;
  bool hwc = false;          // matched by `hwc` in default lists
  uint8_t flavors = kExclusive | kInclusive | kAttributed;
};

// Which command's list is being set: decides the allowed flavors.
enum class ListKind : uint8_t {
  Functions,       // metrics, dmetrics, sort: e, i
  CallersCallees,  // cmetrics, csort: a, e, i (csort: a only)
  Data,            // data_metrics, data_sort: d
};

enum VisBit : uint8_t { kHidden = 0, kVisTime = 1, kVisValue = 2, kVisPercent = 4 };

// One (flavor, metric) column group; vis ORs together the forms shown side by side.
struct Column {
  char flavor = 0;  // 'e' 'i' 'a' 'd'; 0 for static metrics (name, size, address)
  std::string name;
  uint8_t vis = kVisValue;
  bool is_static() const { return flavor == 0; }
  bool visible() const { return vis != kHidden; }
  bool operator==(const Column&) const = default;
};

struct MetricList {
  std::vector<Column> columns;
  // Expanded keywords in display order: "i.user:i%user:e.user:e%user:name".
  std::string to_string() const;
  std::string confirmation() const { return "current: " + to_string(); }
  const Column* find(char flavor, std::string_view name) const;
};

struct SortKey {
  char flavor = 0;  // 0: static
  std::string name = "name";
  bool reverse = false;
  char vis = '.';  // how the key prints: '.' for times and cycles, '+' for counts
  std::string to_string() const;  // "e.user", "-e.user", "e+syncn", "name"
  bool operator==(const SortKey&) const = default;
};

struct SpecError {
  std::string message;
  size_t offset = 0;  // into the spec text
};

template <class T>
struct Resolved {
  T value;
  std::vector<std::string> warnings;  // e.g. metrics not recorded in these experiments
};

using Available = std::span<const AvailableMetric>;

// Explicit list (metrics, cmetrics, data_metrics). `hwc`/`any` are rejected; a known metric
// that the experiments lack is skipped with a warning; an unknown name is an error.
// `name` is appended when the spec does not mention it.
std::variant<Resolved<MetricList>, SpecError> resolve_metrics(std::string_view spec, ListKind kind, Available avail);

// Default list (dmetrics): `hwc` and `any` allowed; unusable entries are skipped.
Resolved<MetricList> resolve_default_metrics(std::string_view spec, ListKind kind, Available avail);

// sort / csort / data_sort. Leading '-' reverses. Visibility letters are ignored except '!'
// (sort by it even when hidden); otherwise the first entry visible in `current` wins.
std::variant<Resolved<SortKey>, SpecError> resolve_sort(std::string_view spec, ListKind kind,
                                                        const MetricList& current, Available avail);

// dsort: first entry present (with '!') or visible (otherwise) in `current`; falls back to
// the first visible dynamic column, then to name.
SortKey resolve_default_sort(std::string_view spec, const MetricList& current, Available avail);

// Lists that follow the function list when it changes.
MetricList derive_callers_callees(const MetricList& functions, Available avail);
MetricList derive_data(const MetricList& functions, Available avail);
SortKey derive_callers_callees_sort(const SortKey& function_sort, Available avail);
SortKey derive_data_sort(const SortKey& function_sort, const MetricList& data, Available avail);

}  // namespace erkit::metricspec
